import { z } from 'zod';
import { WEBHOOK_PROVIDERS } from '../webhooks/webhook-log-filters';

// The shapes the API answers with (API.md). Used for the OpenAPI document; the domain's view
// functions produce exactly these.

const instant = z.string().describe('RFC 3339 time in UTC');

export const ZErrorSchema = z
  .object({
    error: z
      .object({
        code: z.string(),
        message: z.string(),
        requestId: z.string().optional(),
        issues: z.array(z.object({ path: z.string(), message: z.string(), code: z.string() })).optional(),
      })
      .loose(),
  })
  .meta({ id: 'Error' });

export const ZRoomSchema = z.object({ id: z.uuid(), label: z.string(), facilityId: z.uuid() }).meta({ id: 'Room' });

export const ZLockSchema = z
  .object({
    id: z.uuid(),
    provider: z.enum(['simulator', 'seam', 'ttlock']),
    deviceId: z.string().describe('The device’s id at its provider'),
    name: z.string(),
    roomIds: z.array(z.uuid()).describe('The rooms this lock is a door of (its own, or a shared entrance)'),
    online: z.boolean().nullable().describe('null when the provider does not say'),
    batteryLevel: z.number().int().min(0).max(100).nullable().describe('Percent; null when the provider does not say'),
    lastSeenAt: instant.nullable(),
  })
  .meta({ id: 'Lock' });

export const ZKeySchema = z
  .object({
    id: z.uuid(),
    kind: z.enum(['guest', 'staff', 'backup']),
    status: z.enum(['pre_issued', 'active', 'revoked', 'expired']),
    pin: z
      .string()
      .nullable()
      .describe('null whenever the key is not pre_issued or active: an ended key’s PIN is never shown again'),
    validFrom: instant,
    expiresAt: instant,
    vendorSync: z.enum(['pending', 'synced', 'failed']),
    revokedReason: z.string().nullable(),
  })
  .meta({ id: 'Key' });

export const ZStaffCodeSchema = ZKeySchema.extend({
  kind: z.literal('staff'),
  roomId: z.uuid(),
  label: z.string(),
  purpose: z.enum(['housekeeping', 'maintenance', 'inspection']),
  userId: z.uuid().nullable().describe('The staff member the code is for, when one was named'),
  issuedBy: z.string().nullable().describe('Who made the code (the audit actor’s label)'),
}).meta({ id: 'StaffCode' });

export const ZReservationSchema = z
  .object({
    id: z.uuid(),
    bookingGroupId: z.uuid().nullable(),
    roomId: z.uuid(),
    roomLabel: z.string(),
    startsAt: instant,
    endsAt: instant,
    status: z.enum(['held', 'confirmed', 'checked_in', 'checked_out', 'cancelled']),
    paid: z.boolean(),
    source: z.enum(['api', 'desk', 'calendly', 'cal', 'acuity', 'booking_site', 'ical']),
    externalRef: z.string().nullable(),
    guest: z.object({ id: z.uuid(), name: z.string() }).nullable(),
    guestDisplay: z.string().describe('The guest’s name, or "Deleted account" once the guest is deleted'),
    guestUrl: z.string().nullable().describe('Absolute link to the guest’s key page'),
  })
  .meta({ id: 'Reservation' });

export const ZBookingGroupSchema = z
  .object({
    id: z.uuid(),
    status: z.enum(['unpaid', 'paid', 'refunded', 'cancelled']),
    paymentIntentId: z.string().nullable(),
    reservations: z.array(ZReservationSchema),
  })
  .meta({ id: 'BookingGroup' });

export const ZCheckInResultSchema = z
  .object({ checkInId: z.uuid(), key: ZKeySchema, revokedKeyIds: z.array(z.uuid()) })
  .meta({ id: 'CheckInResult' });

export const ZAuditEventSchema = z
  .object({
    id: z.uuid(),
    occurredAt: instant,
    actor: z.object({ type: z.string(), id: z.string().nullable(), label: z.string() }),
    action: z.string(),
    subject: z.object({ type: z.string(), id: z.string().nullable() }),
    roomId: z.string().nullable(),
    reason: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'AuditEvent' });

export const ZApiKeySchema = z
  .object({ id: z.uuid(), name: z.string(), prefix: z.string(), createdAt: instant, lastUsedAt: instant.nullable() })
  .meta({ id: 'ApiKey' });

export const ZWebhookEventSchema = z
  .object({
    id: z.uuid(),
    provider: z.enum(WEBHOOK_PROVIDERS),
    type: z.string(),
    status: z.enum(['received', 'processed', 'ignored', 'rejected', 'failed', 'dead']),
    reason: z.string().nullable(),
    receivedAt: instant,
    attempts: z.number().int(),
  })
  .meta({ id: 'WebhookEvent' });

export const ZRoomTypeSchema = z
  .object({
    id: z.uuid(),
    facilityId: z.uuid(),
    name: z.string(),
    capacity: z.number().int(),
    rateCents: z.number().int().describe('The weekday price, in the currency’s smallest unit'),
    currency: z.string().describe('ISO 4217, lower case: the facility’s'),
    unit: z.enum(['night', 'hour']).describe('What the rate is per: the facility’s booking unit'),
    roomIds: z.array(z.uuid()).describe('The rooms of this type (archived rooms apart)'),
  })
  .meta({ id: 'RoomType' });

export const ZPaymentSchema = z
  .object({
    id: z.uuid(),
    reservationId: z.uuid(),
    amountCents: z.number().int(),
    currency: z.string(),
    method: z.enum(['cash', 'card_terminal', 'stripe']),
    note: z.string().nullable(),
    createdAt: instant,
  })
  .meta({ id: 'Payment' });

export const dataOf = <T extends z.ZodType>(schema: T) => z.object({ data: schema });
export const listOf = <T extends z.ZodType>(schema: T) =>
  z.object({ data: z.array(schema), nextCursor: z.string().nullable() });

/** A room's iCal export URL (secret: whoever has it reads the room's busy periods). */
export const ZIcalUrlSchema = z.object({ url: z.url() });

/** A room's iCal import feed as listed: its channel, its host (never the whole URL) and its last fetch. */
export const ZDoorEntrySchema = z
  .object({
    id: z.uuid(),
    occurredAt: instant,
    kind: z.enum(['unlocked', 'locked']),
    method: z.enum(['code', 'app', 'manual', 'unknown']),
    provider: z.enum(['simulator', 'seam', 'ttlock']),
    lockId: z.uuid(),
    lockName: z.string(),
    keyId: z.uuid().nullable(),
    reservationId: z.uuid().nullable(),
    roomId: z.uuid().nullable(),
    roomLabel: z.string().nullable(),
    userId: z.uuid().nullable().describe('The person who opened it remotely'),
  })
  .meta({ id: 'DoorEntry' });

export const ZRemoteUnlockSchema = z
  .object({
    id: z.uuid(),
    lockId: z.uuid(),
    status: z
      .enum(['pending', 'done', 'failed'])
      .describe('done: the provider says the door opened; pending: not confirmed yet; failed: the provider refused'),
  })
  .meta({ id: 'RemoteUnlock' });

export const ZIcalFeedSchema = z.object({
  id: z.uuid(),
  channel: z.enum(['airbnb', 'booking', 'vrbo', 'other']),
  channelLabel: z.string(),
  host: z.string(),
  lastFetchedAt: instant.nullable(),
  lastSuccessAt: instant.nullable(),
  failures: z.number().int(),
  lastError: z.string().nullable(),
  stays: z.number().int(),
});
