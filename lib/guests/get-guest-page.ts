import { isGuestTokenShape } from '../auth/guest-links';
import { isAppError } from '../errors';
import {
  getEndedGuestStay,
  guestKeyOf,
  lockWindowOf,
  readGuestStay,
  selfCheckInOf,
  statusStayOf,
  type GuestStay,
} from './get-guest-key';
import { guestKeyLimit } from './guest-rate-limits';
import { guestPhaseOf, guestViewOf, type GuestRegistrationState, type GuestStatus } from './guest-view';

export type GuestPage =
  | {
      kind: 'live';
      stay: GuestStay;
      /** The stay and key for the first HTML; null when the key could not be read now (the page asks). */
      initial: GuestStatus | null;
      /** When it was read (ms since the epoch): the phone derives its first view at this instant. */
      readAt: number;
      /** The stay's guest register (Japan's lodging law): the page asks for it while `missing`. */
      registration: GuestRegistrationState;
    }
  | {
      kind: 'thanks' | 'cancelled';
      facilityName: string;
      phone: string | null;
      email: string | null;
      address: string | null;
    };

/**
 * What the key page renders for a token: the live stay with its key (read with the key endpoint's
 * rules and rate limit, which issue a missing stay key), a thank-you after the stay (checked out, or
 * past its end while the link is in its grace), the cancelled page, or `null` (404) for an unknown,
 * rotated or expired link or a deleted guest's.
 */
export async function getGuestPage(token: string, clientAddress: string): Promise<GuestPage | null> {
  if (!isGuestTokenShape(token)) return null;
  // The stay, its keys and the key endpoint's rate limit in one round trip; the key is picked (or issued)
  // only when the limit allows: a refused page still shows the stay, and asks for its key later.
  const read = await readGuestStay(token, guestKeyLimit(token, clientAddress));
  if (!read) {
    const ended = await getEndedGuestStay(token);
    if (!ended) return null;
    const { facilityName, phone, email, address } = ended;
    return { kind: ended.status === 'cancelled' ? 'cancelled' : 'thanks', facilityName, phone, email, address };
  }
  const { stay, refused } = read;
  const key = await (refused ? Promise.reject(refused) : guestKeyOf(read)).then(
    ({ roomLabel: _room, ...view }) => view,
    // No key yet, or none before the guest checks in (a self check-in facility): the page says why.
    (error: unknown) =>
      isAppError(error) && (error.code === 'reservation_not_ready' || error.code === 'check_in_required')
        ? null
        : undefined,
  );
  const readAt = Date.now();
  const initial: GuestStatus | null =
    key === undefined
      ? null
      : {
          stay: statusStayOf(stay),
          key,
          lockWindow: lockWindowOf(read.keys, key),
          selfCheckIn: selfCheckInOf(stay),
          registration: read.registration,
        };
  if (initial && guestPhaseOf(guestViewOf(initial, readAt)) === 'thanks') {
    const { phone, email, address } = stay.facility;
    return { kind: 'thanks', facilityName: stay.facilityName, phone, email, address };
  }
  return { kind: 'live', stay, initial, readAt, registration: read.registration ?? 'not_required' };
}
