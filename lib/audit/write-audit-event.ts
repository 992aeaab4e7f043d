import { AppError } from '../errors';
import type { Prisma } from '../db/generated/client';
import type { Tx } from '../db/tx';
import { isWrittenAuditAction, type WrittenAuditAction } from './audit-filters';
import type { Actor } from './actor';

type Json = string | number | boolean | null | Json[] | { [key: string]: Json | undefined };
type JsonObject = { [key: string]: Json | undefined };

/**
 * What each action written from TypeScript keeps in `metadata` (the actions SQL functions write are
 * typed by their functions). An action not named here carries any JSON object.
 */
export type AuditMetadataOf = {
  'api_key.created': { name: string; prefix: string };
  'api_key.revoked': Record<string, never>;
  'user.sign_in_throttled': {
    address: string;
    limit: 'account_address' | 'address';
    failures: number;
    refillMinutes: number;
  };
  'room.created': {
    label: string;
    facilityId: string;
    rateCents: number | null;
    currency: string;
    rateUnit: string;
    rateName: string | null;
  } & JsonObject;
  'room.updated': { label: string; changed: string[]; before: JsonObject; after: JsonObject };
  'room.archived': { label: string };
  'room.restored': { label: string };
  'secret.set': { provider: string; keyVersion: number };
  'secret.rotated': { provider: string; fromVersion: number; toVersion: number };
  'facility.created': { name: string; timeZone: string; bookingUnit: string };
  'facility.updated': { name: string; changed: string[] };
  /** Written in SQL (app_complete_sign_up); the shape it has. */
  'tenant.signed_up': {
    email: string;
    organisation: string;
    facilityId: string;
    facility: string;
    timeZone: string;
    newAccount: boolean;
  };
  'member.created': { email: string; name: string; role: string };
  'member.role_changed': { email: string; from: string; to: string };
  'member.reactivated': { email: string; role: string };
  'member.deactivated': { email: string; role: string };
  'member.unlocked': { email: string; clearedLimits: number };
  // Written in SQL (app_resend_invitation, lib/payments/stripe-connect.ts); the shapes, for readers.
  'member.invitation_resent': { email: string; role: string; previousInvitationId: string };
  'payments.stripe_connected': { account: string };
  'webhook.replayed': { provider: string; from: string; to: string; requeued: number };
  'booking_source.added': {
    provider: string;
    eventType: string;
    room: string;
    roomTypeId?: string;
    previousRoomId?: string;
    previousRoomTypeId?: string;
  };
  'room_type.created': {
    facilityId: string;
    currency: string;
    name: string;
    description: string;
    capacity: number;
    weekdayCents: number;
    weekendCents: number | null;
    holidayCents: number | null;
  };
  'room_type.updated': { name: string; changed: string[]; before: JsonObject; after: JsonObject };
  'room_type.archived': { name: string };
  'ical_feed.added': ({ room: string } | { roomType: string }) & { feedId: string; channel: string; host: string };
  'ical_feed.removed': { feedId: string; channel: string; host: string };
  'room.ical_url_rotated': { room: string };
  'room_type.photo_added': { name: string; photoId: string; position: number; contentType: string; bytes: number };
  'room_type.photo_removed': { photoId: string };
  'facility.published': { slug: string; previousSlug: string | null };
  'facility.unpublished': { slug: string | null };
  'reservation.paid': { amount: number; currency: string; method: string; paymentId: string };
  'booking_source.removed': { provider: string; eventType: string; room: string };
  'key.pin_revealed': { reservationId: string };
  'guest.updated': { guestId: string; changed: string[] };
  'guest_link.rotated': { endedLinkIds: string[]; linkId: string; reissuedKeyIds: string[] };
  'guest.deleted': {
    guestRef: string | null;
    revokedKeyIds: string[];
    redactedWebhookEvents: number;
    /** The latest retention end of the guest's stays' registers, kept past the deletion; null when none. */
    registerKeptUntil: string | null;
  };
  'lock_provider.set': { provider: string } & JsonObject;
  'lock.assigned': { provider: string; deviceId: string };
  'room.lock_added': { lockId: string; role: string; liveKeysSent: number };
  'room.door_removed': { lockId: string; role: string; keysRemoving: number; doorsLeft: number };
  'room.lock_replaced': {
    oldLockId: string;
    newLockId: string;
    role: string;
    keysSent: number;
    keysRemoving: number;
    keysSkipped: number;
  };
  'mail.test_requested': { testId: string; domain: string };
  'mail.test_sent': { testId: string; ok: boolean; domain: string; problem: string | null; answer: string | null };
  'locks.synced': { provider: string; devices: number; imported: number };
  'lock.drift_acknowledged': { incidentId: string; codes: number };
  /** A door opened from the desk or the API: the provider's answer (`pending` converges later, in remote_unlocks). */
  'door.unlocked_remotely': {
    lock: string;
    provider: string;
    remoteUnlockId: string;
    status: 'pending' | 'done' | 'failed';
    error: string | null;
  };
  /** Written in SQL (app_record_door_entry): one door opening a provider reported, the first time it is stored. */
  'door.opened': {
    method: 'code' | 'app' | 'manual' | 'unknown';
    keyId: string | null;
    reservationId: string | null;
    entryId: string;
    remoteUnlockId: string | null;
  };
};

type MetadataOf<A extends WrittenAuditAction> = A extends keyof AuditMetadataOf ? AuditMetadataOf[A] : JsonObject;

/** The kinds of subject an audit row points at (`subject_type`). */
export type AuditSubjectType =
  | 'access_key'
  | 'api_key'
  | 'booking_source'
  | 'facility'
  | 'guest'
  | 'lock'
  | 'provider_secret'
  | 'reservation'
  | 'room'
  | 'room_type'
  | 'tenant'
  | 'user'
  | 'webhook_events';

/** One audit row as the application writes it: an action of the typed list, with that action's metadata. */
export type AuditEventInput<A extends WrittenAuditAction = WrittenAuditAction> = {
  tenantId: string;
  actor: Actor;
  action: A;
  subject: { type: AuditSubjectType; id?: string | null };
  roomId?: string | null;
  reason?: string | null;
} & (Record<string, never> extends MetadataOf<A> ? { metadata?: MetadataOf<A> } : { metadata: MetadataOf<A> });

/**
 * Writes one audit row in the caller's transaction, so it commits or rolls back with the change it
 * records. The only writer of `audit_events` from TypeScript besides Stripe's once-per-event rows
 * (lib/webhooks/stripe/record-billing-failure.ts); an action outside the typed lists is refused.
 */
export async function writeAuditEvent<A extends WrittenAuditAction>(tx: Tx, event: AuditEventInput<A>): Promise<void> {
  if (!isWrittenAuditAction(event.action)) throw new AppError('internal', `unknown audit action: ${event.action}`);
  await tx.auditEvent.create({
    data: {
      tenantId: event.tenantId,
      actorType: event.actor.type,
      actorId: event.actor.id,
      actorLabel: event.actor.label,
      action: event.action,
      subjectType: event.subject.type,
      subjectId: event.subject.id ?? null,
      roomId: event.roomId ?? null,
      reason: event.reason ?? null,
      ...(event.metadata !== undefined && { metadata: event.metadata as Prisma.InputJsonObject }),
    },
  });
}
