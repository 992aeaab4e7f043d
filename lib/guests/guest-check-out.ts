import { isGuestTokenShape } from '../auth/guest-links';
import type { Statement } from '../db/tx';
import { AppError } from '../errors';
import { checkOutReservation } from '../stays/check-out';
import { getEndedGuestStay, readGuestStay } from './get-guest-key';

const NOT_FOUND = 'This key link is unknown or has expired.';

/**
 * The guest's early check-out from the key page (`POST /api/guest/{token}/check-out`): the desk's
 * check-out (SQL check_out_reservation) with the guest as actor — the stay ends now, its keys are
 * revoked at once (`checked_out`) and the room is free from now. Again (the link now reads an ended
 * stay) → the same answer, nothing written; a stay not checked in → `reservation_not_ready`.
 */
export async function checkOutAsGuest(token: string, limit?: Statement<void>): Promise<{ status: 'checked_out' }> {
  if (!isGuestTokenShape(token)) throw new AppError('not_found', NOT_FOUND);
  const read = await readGuestStay(token, limit);
  if (read?.refused) throw read.refused;
  if (!read) {
    const ended = await getEndedGuestStay(token);
    if (ended?.status === 'checked_out') return { status: 'checked_out' };
    throw new AppError('not_found', NOT_FOUND);
  }
  const { tenantId, reservationId } = read.stay;
  await checkOutReservation({
    tenantId,
    reservationId,
    actor: { type: 'guest', id: reservationId, label: 'guest link' },
  });
  return { status: 'checked_out' };
}
