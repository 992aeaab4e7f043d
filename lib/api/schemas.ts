import { z } from 'zod';
import { LOCALES } from '../i18n/locales';
import { ZInstantSchema } from '../time/date-schemas';
import { ZGuestEmailSchema } from '../guests/guest-email';
import { WEBHOOK_PROVIDERS } from '../webhooks/webhook-log-filters';

/** A reason a person gives for revoking or cancelling: required, short, printable. */
export const ZReasonSchema = z.string().trim().min(1, 'a reason is required').max(200);

export const ZRevokeKeyBodySchema = z.object({ reason: ZReasonSchema }).strict();
export type TRevokeKeyBody = z.infer<typeof ZRevokeKeyBodySchema>;

/** An RFC 3339 instant with an offset that names a real calendar date in years 2000–2100, as a Date. */
export const ZTimestampSchema = ZInstantSchema;

function bothDates(item: { startsAt: unknown; endsAt: unknown }): item is { startsAt: Date; endsAt: Date } {
  return item.startsAt instanceof Date && item.endsAt instanceof Date;
}

export const ZBookingItemSchema = z
  .object({ roomId: z.uuid(), startsAt: ZTimestampSchema, endsAt: ZTimestampSchema })
  .strict()
  // zod runs object refinements even when a field failed: check the shapes before comparing.
  .refine((item) => !bothDates(item) || item.endsAt > item.startsAt, {
    message: 'endsAt must be after startsAt',
    path: ['endsAt'],
  })
  .refine((item) => !bothDates(item) || item.endsAt.getTime() - item.startsAt.getTime() <= 366 * 86_400_000, {
    message: 'a stay is at most a year',
    path: ['endsAt'],
  });

export const ZCreateBookingGroupBodySchema = z
  .object({
    guest: z
      .object({
        name: z.string().trim().min(1).max(200),
        email: ZGuestEmailSchema.optional(),
        phone: z
          .string()
          .trim()
          .regex(/^[+0-9 ()-]{3,40}$/, 'not a phone number')
          .optional(),
      })
      .strict(),
    reservations: z.array(ZBookingItemSchema).min(1).max(50),
    preIssueKeys: z.boolean().default(true),
    paymentIntentId: z
      .string()
      .regex(/^pi_[A-Za-z0-9_]{1,200}$/, 'must be a PaymentIntent id (pi_…)')
      .optional(),
    /** The guest's language for their mails; absent: the facility's default language. */
    locale: z.enum(LOCALES).optional(),
  })
  .strict();
export type TCreateBookingGroupBody = z.infer<typeof ZCreateBookingGroupBodySchema>;

export const ZCancelBodySchema = z.object({ reason: ZReasonSchema }).strict();

/** The check-in's optional body: `early: true` checks in before the check-in opens (audited; the room must be free). */
export const ZCheckInBodySchema = z.object({ early: z.literal(true).optional() }).strict();

// Stay changes (issue 15, item 6).

/** POST /reservations/{id}/check-out: no body, or an empty object. */
export const ZCheckOutBodySchema = z.object({}).strict();

export const ZMoveReservationBodySchema = z.object({ roomId: z.uuid(), reason: ZReasonSchema }).strict();

/** PATCH /reservations/{id}: one bound or both; the database checks the result against the stay and the room. */
export const ZChangeReservationBodySchema = z
  .object({ startsAt: ZTimestampSchema.optional(), endsAt: ZTimestampSchema.optional() })
  .strict()
  .refine((body) => body.startsAt !== undefined || body.endsAt !== undefined, {
    message: 'give startsAt, endsAt or both',
    path: ['endsAt'],
  })
  .refine((body) => !(body.startsAt instanceof Date && body.endsAt instanceof Date) || body.endsAt > body.startsAt, {
    message: 'endsAt must be after startsAt',
    path: ['endsAt'],
  });

export const ZReissueKeyBodySchema = z.object({ reason: ZReasonSchema }).strict();

export const ZCreateStaffCodeBodySchema = z
  .object({
    label: z.string().trim().min(1).max(100),
    purpose: z.enum(['housekeeping', 'maintenance', 'inspection']),
    startsAt: ZTimestampSchema,
    endsAt: ZTimestampSchema,
    userId: z.uuid().optional(),
  })
  // A staff code's window (after its start, in the future, at most 31 days) is one rule in SQL
  // (access_keys_staff_code_rules), the same for the desk, this API and a re-issue.
  .strict();

export const ZListReservationsQuerySchema = z
  .object({
    roomId: z.uuid().optional(),
    from: ZTimestampSchema.optional(),
    to: ZTimestampSchema.optional(),
    status: z.enum(['held', 'confirmed', 'checked_in', 'checked_out', 'cancelled']).optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
    cursor: z.string().max(500).optional(),
  })
  .strict()
  .refine((q) => !(q.from instanceof Date) || !(q.to instanceof Date) || q.to > q.from, {
    message: 'to must be after from',
    path: ['to'],
  });

/** GET /entries: door entries of a room or a stay within [from, to), newest first. */
export const ZListEntriesQuerySchema = z
  .object({
    roomId: z.uuid().optional(),
    reservationId: z.uuid().optional(),
    from: ZTimestampSchema.optional(),
    to: ZTimestampSchema.optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
    cursor: z.string().max(500).optional(),
  })
  .strict()
  .refine((q) => !(q.from instanceof Date) || !(q.to instanceof Date) || q.to > q.from, {
    message: 'to must be after from',
    path: ['to'],
  });

/** GET /ical-feeds: the tenant's import feeds, oldest first. */
export const ZListIcalFeedsQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(200).default(50),
    cursor: z.string().max(500).optional(),
  })
  .strict();

/** POST /ical-feeds/{id}/sync: no body, or an empty object. */
export const ZIcalSyncBodySchema = z.object({}).strict();

export const ZListAuditEventsQuerySchema = z
  .object({
    subjectId: z.uuid().optional(),
    action: z
      .string()
      .regex(/^[a-z_]+\.[a-z_]+$/, 'an action like key.revoked')
      .optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
    cursor: z.string().max(500).optional(),
  })
  .strict();

export const ZListWebhookEventsQuerySchema = z
  .object({
    provider: z.enum(WEBHOOK_PROVIDERS).optional(),
    status: z.enum(['received', 'processed', 'ignored', 'rejected', 'failed', 'dead']).optional(),
    from: ZTimestampSchema.optional(),
    to: ZTimestampSchema.optional(),
    limit: z.coerce.number().int().min(1).max(200).default(100),
    cursor: z.string().max(500).optional(),
  })
  .strict();

/** POST /reservations/{id}/payments: a payment taken at the property, in the facility currency's smallest unit. */
export const ZRecordPaymentBodySchema = z
  .object({
    amountCents: z.number().int().min(1).max(100_000_000),
    method: z.enum(['cash', 'card_terminal']),
    note: z.string().trim().max(500).optional(),
  })
  .strict();

export const ZEmptyQuerySchema = z.object({}).strict();
