/** A message as the desk and the manager see it (the stored status, its last error). */
export type MessageRecord = {
  id: string;
  reservationId: string | null;
  roomLabel: string | null;
  kind: 'key_link' | 'stay_changed' | 'incident_opened' | 'incident_raised' | 'booking_code';
  channel: 'email';
  /** Null once the guest was deleted (erased). */
  to: string | null;
  status: 'queued' | 'sending' | 'sent' | 'failed' | 'skipped';
  attempts: number;
  lastError: string | null;
  sentAt: Date | null;
  createdAt: Date;
};

/** A message in the API's shape (API.md): `sending` reads `queued`, a message that will not be sent `failed`. */
export type MessageView = {
  id: string;
  kind: MessageRecord['kind'];
  channel: 'email';
  to: string | null;
  status: 'queued' | 'sent' | 'failed';
  attempts: number;
  sentAt: string | null;
};

export function toMessageView(message: MessageRecord): MessageView {
  return {
    id: message.id,
    kind: message.kind,
    channel: message.channel,
    to: message.to,
    status: message.status === 'sending' ? 'queued' : message.status === 'skipped' ? 'failed' : message.status,
    attempts: message.attempts,
    sentAt: message.sentAt ? message.sentAt.toISOString() : null,
  };
}

/** The SQL select list of a MessageRecord over `messages m` (with `r` the reservation, left-joined). */
export const MESSAGE_COLUMNS = `m.id, m.reservation_id as "reservationId", r.room_label_snapshot as "roomLabel", m.kind::text as kind,
  m.channel, m.to_address as "to", m.status::text as status, m.attempts, m.last_error as "lastError",
  m.sent_at as "sentAt", m.created_at as "createdAt"`;
