import type { RegistrationState } from '../registration/registration-state';
/**
 * What the guest page shows, as one pure function of the stay, its key and the time: the server
 * page and the phone's poll derive it the same way, so a state the server would not render (a dead
 * PIN as ready, "works from" after it works) cannot appear on an open page either. No imports but
 * types: this runs on the phone.
 */
import type { KeyView } from '../keys/key-view';

export type GuestStayStatus = 'held' | 'confirmed' | 'checked_in' | 'checked_out' | 'cancelled';

/** `GET /api/guest/{token}/status` → `data`: the stay as the link sees it and the key the guest is shown. */
export type GuestStatus = {
  stay: { status: GuestStayStatus; startsAt: string; endsAt: string; roomLabel: string };
  /** `pin` is null once the key has ended, is past its end, or the lock refused it (`toGuestKeyView`). */
  key: KeyView | null;
  /**
   * Whether the key's code on its lock holds the stay's current window: `updating` while new dates are
   * being put on the lock, `failed` when the lock could not take them (the code keeps its old window:
   * see the desk), null when it does (or there is no key). Absent in answers from before it existed.
   */
  lockWindow?: GuestLockWindow;
  /**
   * At a self check-in facility, when the guest may check in from the phone (issue 31); null where the
   * desk checks guests in. Absent in answers from before it existed.
   */
  selfCheckIn?: { opensAt: string } | null;
  /**
   * The stay's guest register (Japan's lodging law): `not_required` where the facility keeps none,
   * `missing` until every guest is recorded, then `complete`. Absent in answers from before it existed.
   */
  registration?: GuestRegistrationState;
};

export type GuestRegistrationState = RegistrationState;

export type GuestLockWindow = 'updating' | 'failed' | null;

export type GuestView =
  /** The booking was cancelled: no key, the desk's contact. */
  | { kind: 'cancelled' }
  /** Checked out, or past the stay's end while the link is in its grace: a thank-you page. */
  | { kind: 'thanks' }
  /** No key has been issued yet. */
  | { kind: 'notReady' }
  /** A self check-in facility: the guest checks in on the page first (from `opensAt`), no key before. */
  | { kind: 'checkInClosed' | 'checkInOpen'; opensAt: string }
  /** No PIN on the page: the key ended, the lock refused it, or the lock has not confirmed it yet. */
  | { kind: 'revoked' | 'expired' | 'failed' | 'activating'; key: KeyView }
  /** The PIN, confirmed by the lock but not working before `key.validFrom` (a stay days away). */
  | { kind: 'scheduled'; key: KeyView; pin: string }
  /** The PIN works now. */
  | { kind: 'ready'; key: KeyView; pin: string };

export type GuestViewKind = GuestView['kind'];

/** Which page the view belongs on: the live key page, or one of the two after-the-stay pages. */
export type GuestPhase = 'live' | 'thanks' | 'cancelled';

/** The view of `status` at `now` (ms since the epoch). A PIN is in the view only while it opens the door or will. */
export function guestViewOf(status: GuestStatus, now: number): GuestView {
  const { stay, key } = status;
  if (stay.status === 'cancelled') return { kind: 'cancelled' };
  if (stay.status === 'checked_out' || Date.parse(stay.endsAt) <= now) return { kind: 'thanks' };
  if (status.selfCheckIn && stay.status !== 'checked_in') {
    const { opensAt } = status.selfCheckIn;
    return { kind: Date.parse(opensAt) > now ? 'checkInClosed' : 'checkInOpen', opensAt };
  }
  if (!key) return { kind: 'notReady' };
  if (key.status === 'revoked') return { kind: 'revoked', key };
  // The expiry sweep runs once a minute; past its end a key no longer opens the door anyway.
  if (key.status === 'expired' || Date.parse(key.expiresAt) <= now) return { kind: 'expired', key };
  if (key.vendorSync === 'failed' || key.pin === null) return { kind: 'failed', key };
  if (key.vendorSync === 'pending') return { kind: 'activating', key };
  if (Date.parse(key.validFrom) > now) return { kind: 'scheduled', key, pin: key.pin };
  return { kind: 'ready', key, pin: key.pin };
}

/** The page a view is shown on. */
export function guestPhaseOf(view: GuestView): GuestPhase {
  return view.kind === 'thanks' || view.kind === 'cancelled' ? view.kind : 'live';
}

/** The PIN the view shows, if any. */
export function shownPin(view: GuestView): string | null {
  return view.kind === 'ready' || view.kind === 'scheduled' ? view.pin : null;
}

/** The next instant after `now` at which the view can change with no new answer: the key's start or end, the stay's end. */
export function nextBoundary(status: GuestStatus | null, now: number): number | null {
  if (!status) return null;
  const instants = [status.key?.validFrom, status.key?.expiresAt, status.stay.endsAt, status.selfCheckIn?.opensAt]
    .filter((at): at is string => typeof at === 'string')
    .map(Date.parse)
    .filter((at) => at > now);
  return instants.length > 0 ? Math.min(...instants) : null;
}
