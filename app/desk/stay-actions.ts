'use server';

import { z } from 'zod';
import { cancelReservation } from '@/lib/bookings/cancel-reservation';
import { isAppError } from '@/lib/errors';
import { correctGuestOfReservation } from '@/lib/guests/correct-guest';
import { issueNewStayKey, reissueKey } from '@/lib/keys/reissue-key';
import { createStaffCode, staffCodeRoom, STAFF_CODE_PURPOSES } from '@/lib/keys/staff-codes';
import { changeReservationDates } from '@/lib/stays/change-dates';
import { checkOutReservation } from '@/lib/stays/check-out';
import { moveReservation } from '@/lib/stays/move-reservation';
import { stayBounds } from '@/lib/stays/stay-options';
import { instantToZonedLocal, zonedLocalToInstant } from '@/lib/time/zoned-local';
import { refuse, staffAction, type ActionState } from '@/app/_server/action';

// A shift's stay changes at the desk. Each one is one lib function (one transaction, audit rows,
// lock commands through the outbox); the desk and every reservation page are refreshed after it.
const DESK = { path: '/desk', type: 'layout' } as const;

const ZReasonFieldSchema = z
  .string('stay.error.reasonRequired')
  .trim()
  .min(1, 'stay.error.reasonRequired')
  .max(200, 'stay.error.reasonTooLong');

/** A datetime-local field (`YYYY-MM-DDTHH:mm`), read in the facility's zone by the action. */
const ZLocalFieldSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, 'stay.error.dateFormat');

/** Checks the stay out: its keys end now. */
export const checkOutAction = staffAction(
  { name: 'checkOut', permission: 'stays.change', input: z.object({ reservationId: z.uuid() }), revalidate: DESK },
  async ({ input: { reservationId }, tenantId, actor }) => {
    const stay = await checkOutReservation({ tenantId, reservationId, actor });
    return { status: stay.status };
  },
);

/** Moves the stay to another room with a reason: the old door's code goes, the new door gets a new PIN. */
export const moveStayAction = staffAction(
  {
    name: 'moveStay',
    permission: 'stays.change',
    input: z.object({
      reservationId: z.uuid(),
      roomId: z.uuid('stay.error.roomRequired'),
      reason: ZReasonFieldSchema,
    }),
    echo: { reason: 'text' },
    revalidate: DESK,
  },
  async ({ input: { reservationId, roomId, reason }, tenantId, actor }) => {
    const stay = await moveReservation({ tenantId, reservationId, roomId, reason, actor });
    return { roomLabel: stay.roomLabel };
  },
);

/**
 * New dates for the stay, each bound one datetime-local field in the facility's zone (a checked-in
 * stay sends only its end). A bound the clerk left as it was stays exactly as it was (the field
 * has no seconds).
 */
export const changeStayDatesAction = staffAction(
  {
    name: 'changeStayDates',
    permission: 'stays.change',
    input: z.object({ reservationId: z.uuid(), startsAt: ZLocalFieldSchema.optional(), endsAt: ZLocalFieldSchema }),
    echo: { startsAt: 'text', endsAt: 'text' },
    revalidate: DESK,
  },
  async ({ input, tenantId, actor }) => {
    const stay = await stayBounds({ tenantId, reservationId: input.reservationId });
    if (!stay) return refuse('stay.error.notFound');
    const read = (local: string | undefined, current: Date) =>
      local === undefined || local === instantToZonedLocal(current, stay.timeZone)
        ? current
        : zonedLocalToInstant(local, stay.timeZone);
    const startsAt = read(input.startsAt, stay.startsAt);
    const endsAt = read(input.endsAt, stay.endsAt);
    if (!startsAt) return refuse('stay.error.dateFormat', { field: 'startsAt' });
    if (!endsAt || endsAt <= startsAt) return refuse('stay.error.endBeforeStart', { field: 'endsAt' });
    const changed = await changeReservationDates({
      tenantId,
      reservationId: input.reservationId,
      startsAt: startsAt === stay.startsAt ? undefined : startsAt,
      endsAt: endsAt === stay.endsAt ? undefined : endsAt,
      actor,
    });
    return { startsAt: changed.startsAt, endsAt: changed.endsAt };
  },
);

/** The guest never came: the stay is cancelled with reason `no_show` (audited) and its keys end. */
export const noShowAction = staffAction(
  { name: 'noShow', permission: 'stays.change', input: z.object({ reservationId: z.uuid() }), revalidate: DESK },
  async ({ input: { reservationId }, tenantId, actor }) => {
    await cancelReservation({ tenantId, reservationId, reason: 'no_show', keyReason: 'no_show', actor });
    return { status: 'cancelled' as const };
  },
);

/** Cancels a booking that has not started, with a reason (audited): its keys end and the room is free. */
export const cancelStayAction = staffAction(
  {
    name: 'cancelStay',
    permission: 'stays.change',
    input: z.object({ reservationId: z.uuid(), reason: ZReasonFieldSchema }),
    echo: { reason: 'text' },
    revalidate: DESK,
  },
  async ({ input: { reservationId, reason }, tenantId, actor }) => {
    await cancelReservation({ tenantId, reservationId, reason, actor });
    return { status: 'cancelled' as const };
  },
);

/** Corrects the guest's name, email and phone (audited by field, never the values). */
export const correctGuestAction = staffAction(
  {
    name: 'correctGuest',
    permission: 'stays.change',
    input: z.object({
      reservationId: z.uuid(),
      name: z.string().trim().min(1, 'stay.guestDetails.invalid').max(200, 'stay.guestDetails.invalid'),
      email: z
        .string()
        .trim()
        .default('')
        .pipe(z.union([z.literal(''), z.email('stay.guestDetails.invalid').max(320, 'stay.guestDetails.invalid')])),
      phone: z.string().trim().max(40, 'stay.guestDetails.invalid').default(''),
    }),
    echo: { name: 'text', email: 'text', phone: 'text' },
    revalidate: DESK,
  },
  async ({ input: { reservationId, name, email, phone }, tenantId, actor }) =>
    correctGuestOfReservation({ tenantId, reservationId, name, email: email || null, phone: phone || null, actor }),
);

/** Re-issues one key with a reason: a new PIN, the old one revoked (`reissued`). */
export const reissueKeyAction = staffAction(
  {
    name: 'reissueKey',
    permission: 'keys.revoke',
    input: z.object({ keyId: z.uuid(), reason: ZReasonFieldSchema }),
    echo: { reason: 'text' },
    revalidate: DESK,
  },
  async ({ input: { keyId, reason }, tenantId, actor }) => {
    const key = await reissueKey({ tenantId, keyId, reason, actor });
    return { keyId: key.id, pin: key.pin };
  },
);

/** A new key for a stay whose keys have all ended (after a revocation, a lost phone…). */
export const issueNewKeyAction = staffAction(
  {
    name: 'issueNewKey',
    permission: 'keys.revoke',
    input: z.object({ reservationId: z.uuid(), reason: ZReasonFieldSchema }),
    echo: { reason: 'text' },
    revalidate: DESK,
  },
  async ({ input: { reservationId, reason }, tenantId, actor }) => {
    const key = await issueNewStayKey({ tenantId, reservationId, reason, actor });
    return { keyId: key.id, pin: key.pin };
  },
);

/** A staff code for a room and a work window (one datetime-local field per bound, in the facility's zone). */
export const createStaffCodeAction = staffAction(
  {
    name: 'createStaffCode',
    permission: 'staff_codes.manage',
    input: z.object({
      roomId: z.uuid(),
      label: z
        .string('staffCodes.error.labelRequired')
        .trim()
        .min(1, 'staffCodes.error.labelRequired')
        .max(100, 'staffCodes.error.labelTooLong'),
      purpose: z.enum(STAFF_CODE_PURPOSES, 'staffCodes.error.purpose'),
      startsAt: ZLocalFieldSchema,
      endsAt: ZLocalFieldSchema,
    }),
    echo: { label: 'text', purpose: 'text', startsAt: 'text', endsAt: 'text' },
    revalidate: DESK,
  },
  async ({ input, tenantId, actor }) => {
    const room = await staffCodeRoom({ tenantId, roomId: input.roomId });
    if (!room) return refuse('staffCodes.error.notFound');
    const zone = room.timeZone;
    const startsAt = zonedLocalToInstant(input.startsAt, zone);
    const endsAt = zonedLocalToInstant(input.endsAt, zone);
    if (!startsAt) return refuse('stay.error.dateFormat', { field: 'startsAt' });
    if (!endsAt) return refuse('stay.error.dateFormat', { field: 'endsAt' });
    try {
      const code = await createStaffCode({ tenantId, ...input, startsAt, endsAt, actor });
      return { keyId: code.id, pin: code.pin, label: code.label };
    } catch (error) {
      // The window's rule lives in SQL (after its start, in the future, at most 31 days).
      if (isAppError(error) && error.code === 'invalid_request')
        return refuse('staffCodes.error.window', { field: 'endsAt' });
      throw error;
    }
  },
);

export type StayActionState = ActionState<Record<string, unknown>, Record<string, 'text'>>;
