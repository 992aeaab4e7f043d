'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import type { Actor } from '@/lib/audit/actor';
import type { StaffContext } from '@/lib/auth/staff';
import { completeCheckIn } from '@/lib/stays/complete-check-in';
import { isAppError } from '@/lib/errors';
import { revealPin } from '@/lib/keys/reveal-pin';
import { revokeKey } from '@/lib/keys/revoke-key';
import { rotateGuestLink } from '@/lib/guests/rotate-guest-link';
import { logger } from '@/lib/log/logger';
import { getT } from '../_server/i18n';
import { requireStaff } from '../_server/staff';

// Server actions are public endpoints: each one re-checks the session and permission, reads the
// tenant from the session (never from the form), validates its input and calls one lib function.

export type CheckInState =
  | {
      ok: true;
      reservationId: string;
      pin: string | null;
      vendorSync: 'pending' | 'synced' | 'failed';
      revokedCount: number;
    }
  | { ok: false; reservationId: string | null; message: string }
  | null;

export type RevealPinState = { ok: true; pin: string } | { ok: false; message: string } | null;

/** On failure, `reason` echoes what was typed so the form can keep it. */
export type RevokeKeyState = { ok: true } | { ok: false; message: string; field?: 'reason'; reason?: string } | null;

const ZReservationFormSchema = z.object({ reservationId: z.uuid() });
const ZCheckInFormSchema = z.object({ reservationId: z.uuid(), early: z.enum(['1']).optional() });
const ZKeyFormSchema = z.object({ keyId: z.uuid() });
const REASON_MAX = 200;

function actorOf(staff: StaffContext): Actor {
  return { type: 'user', id: staff.user.id, label: staff.user.name || staff.user.email };
}

function revalidateDesk(): void {
  // The arrivals list and every reservation page under it.
  revalidatePath('/desk', 'layout');
}

/**
 * Completes the check-in of one reservation of the current tenant; the new PIN comes back to hand
 * over. `early=1` checks in before the check-in opens (audited; refused while the room is occupied).
 */
export async function completeCheckInAction(_previous: CheckInState, formData: FormData): Promise<CheckInState> {
  const staff = await requireStaff('checkin.complete', '/desk');
  const t = await getT();
  const parsed = ZCheckInFormSchema.safeParse({
    reservationId: formData.get('reservationId'),
    early: formData.get('early') ?? undefined,
  });
  if (!parsed.success) return { ok: false, reservationId: null, message: t('checkIn.notFound') };
  const { reservationId } = parsed.data;
  try {
    const result = await completeCheckIn({
      tenantId: staff.current.tenantId,
      reservationId,
      actor: actorOf(staff),
      early: parsed.data.early === '1',
    });
    revalidateDesk();
    return {
      ok: true,
      reservationId,
      pin: result.key.pin,
      vendorSync: result.key.vendorSync,
      revokedCount: result.revokedKeyIds.length,
    };
  } catch (error) {
    if (isAppError(error) && error.code === 'not_found')
      return { ok: false, reservationId, message: t('checkIn.notFound') };
    if (isAppError(error) && error.code === 'reservation_not_ready')
      return { ok: false, reservationId, message: t('checkIn.notReady') };
    if (isAppError(error) && error.code === 'too_early')
      return { ok: false, reservationId, message: t('checkIn.tooEarly') };
    if (isAppError(error) && error.code === 'room_unavailable')
      return { ok: false, reservationId, message: t('checkIn.occupied') };
    logger.error({ err: error, reservationId }, 'desk check-in failed');
    return { ok: false, reservationId, message: t('checkIn.error') };
  }
}

/** Shows one key's PIN to staff with `keys.reveal_pin`; revealPin audits it. */
export async function revealPinAction(_previous: RevealPinState, formData: FormData): Promise<RevealPinState> {
  const staff = await requireStaff('keys.reveal_pin', '/desk');
  const t = await getT();
  const parsed = ZKeyFormSchema.safeParse({ keyId: formData.get('keyId') });
  if (!parsed.success) return { ok: false, message: t('key.reveal.notFound') };
  try {
    const { pin } = await revealPin({
      tenantId: staff.current.tenantId,
      keyId: parsed.data.keyId,
      actor: actorOf(staff),
    });
    revalidateDesk();
    return { ok: true, pin };
  } catch (error) {
    if (isAppError(error) && error.code === 'not_found') return { ok: false, message: t('key.reveal.notFound') };
    if (isAppError(error) && error.code === 'illegal_transition') return { ok: false, message: t('key.reveal.ended') };
    logger.error({ err: error, keyId: parsed.data.keyId }, 'desk PIN reveal failed');
    return { ok: false, message: t('key.reveal.error') };
  }
}

/** Revokes one key of the current tenant with a reason (1–200 characters). */
export async function revokeKeyAction(_previous: RevokeKeyState, formData: FormData): Promise<RevokeKeyState> {
  const staff = await requireStaff('keys.revoke', '/desk');
  const t = await getT();
  const schema = z.object({
    keyId: z.uuid(),
    reason: z
      .string(t('key.revoke.reasonRequired'))
      .trim()
      .min(1, t('key.revoke.reasonRequired'))
      .max(REASON_MAX, t('key.revoke.reasonTooLong')),
  });
  const typed = formData.get('reason');
  const echo = typeof typed === 'string' ? typed.slice(0, 1000) : undefined;
  const parsed = schema.safeParse({ keyId: formData.get('keyId'), reason: typed ?? '' });
  if (!parsed.success) {
    const reasonIssue = parsed.error.issues.find((issue) => issue.path[0] === 'reason');
    return reasonIssue
      ? { ok: false, field: 'reason', message: reasonIssue.message, reason: echo }
      : { ok: false, message: t('key.revoke.notFound'), reason: echo };
  }
  const { keyId, reason } = parsed.data;
  try {
    await revokeKey({ tenantId: staff.current.tenantId, keyId, reason, actor: actorOf(staff) });
    revalidateDesk();
    return { ok: true };
  } catch (error) {
    if (isAppError(error) && error.code === 'illegal_transition') {
      revalidateDesk();
      return { ok: false, message: t('key.revoke.illegal'), reason: echo };
    }
    if (isAppError(error) && error.code === 'not_found')
      return { ok: false, message: t('key.revoke.notFound'), reason: echo };
    logger.error({ err: error, keyId }, 'desk key revocation failed');
    return { ok: false, message: t('key.revoke.error'), reason: echo };
  }
}

export type RotateGuestLinkState = { ok: true } | { ok: false; message: string } | null;

/** Replaces a reservation's guest link (a lost or forwarded link): the old one stops working at once, audited. */
export async function rotateGuestLinkAction(
  _previous: RotateGuestLinkState,
  formData: FormData,
): Promise<RotateGuestLinkState> {
  const staff = await requireStaff('guest_links.rotate', '/desk');
  const t = await getT();
  const parsed = ZReservationFormSchema.safeParse({ reservationId: formData.get('reservationId') });
  if (!parsed.success) return { ok: false, message: t('checkIn.notFound') };
  try {
    await rotateGuestLink({
      tenantId: staff.current.tenantId,
      reservationId: parsed.data.reservationId,
      actor: actorOf(staff),
    });
    revalidateDesk();
    return { ok: true };
  } catch (error) {
    if (isAppError(error) && error.code === 'not_found') return { ok: false, message: t('checkIn.notFound') };
    if (isAppError(error) && error.code === 'reservation_not_ready')
      return { ok: false, message: t('reservation.guestLink.rotateNotAllowed') };
    logger.error({ err: error, reservationId: parsed.data.reservationId }, 'desk guest link rotation failed');
    return { ok: false, message: t('reservation.guestLink.rotateError') };
  }
}
