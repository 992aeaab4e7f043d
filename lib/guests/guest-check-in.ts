import { isGuestTokenShape } from '../auth/guest-links';
import type { Statement } from '../db/tx';
import { AppError } from '../errors';
import { forGuest, type KeyView } from '../keys/key-view';
import { completeCheckIn } from '../stays/complete-check-in';
import { requireGuestStay } from './get-guest-key';

const NOT_FOUND = 'This key link is unknown or has expired.';

/**
 * The guest's own check-in from the key page (`POST /api/guest/{token}/check-in`): the desk's hand-off
 * (app_complete_check_in) with the guest as actor, which in PostgreSQL refuses a `desk` facility
 * (`desk_check_in`), a check-in before `startsAt − self_check_in_opens_hours` (`too_early` with `opensAt`)
 * and an incomplete register (`registration_required`), and issues a key that works no earlier than the
 * facility's early check-in allows. Again, from a second phone or a retry: the same check-in and key.
 * With `limit` (the key endpoint's), it is counted in the link's read; a refusal throws `rate_limited`.
 */
export async function checkInAsGuest(token: string, limit?: Statement<void>): Promise<KeyView & { roomLabel: string }> {
  if (!isGuestTokenShape(token)) throw new AppError('not_found', NOT_FOUND);
  const read = await requireGuestStay(token, limit);
  const { tenantId, reservationId, roomLabel } = read.stay;
  const { key } = await completeCheckIn({
    tenantId,
    reservationId,
    actor: { type: 'guest', id: reservationId, label: 'guest link' },
  });
  return { ...forGuest(key), roomLabel };
}
