// What a record is called and where it is read: types and links only, so Client Components may import them
// (lib/records/name-records.ts reads the names from the database).

/**
 * A stay as a person reads it: its room and guest ("Room 102 · Kenji Sato"). `guestName` is null once
 * the guest is deleted (shown as "Deleted account"). Names are read now, never copied into audit
 * metadata, so deleting a guest erases the name everywhere it was shown.
 */
export type ReservationName = { reservationId: string; roomLabel: string; guestName: string | null };
export type LockName = { id: string; name: string };
export type RoomName = { id: string; label: string };
export type WebhookEventName = { id: string; provider: string; type: string; status: string; receivedAt: string };

/** Where a record is read and acted on, for the pages that link to it. */
export const recordHref = {
  reservation: (id: string) => `/desk/reservations/${id}`,
  lock: (id: string) => `/manage/locks#lock-${id}`,
  webhookEvent: (id: string) => `/manage/webhooks?event=${id}`,
  bookingSources: () => '/manage/booking-sources',
} as const;
