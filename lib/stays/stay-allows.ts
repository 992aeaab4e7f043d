import { can, type Role } from '../auth/permissions';

/** What the rules look at: a reservation's status, bounds, guest, check-in and keys. */
export type StayFacts = {
  status: string;
  startsAt: Date;
  endsAt: Date;
  guest: unknown;
  checkIn: unknown;
  accessKeys: readonly { kind: string; status: string }[];
};

/** The stay changes the desk offers, one flag each (the buttons of the reservation page). */
export type StayChanges = {
  checkOut: boolean;
  move: boolean;
  changeDates: boolean;
  noShow: boolean;
  newKey: boolean;
  cancel: boolean;
  correctGuest: boolean;
};

/** What a member may do on one reservation now: check-in, the guest link, keys, stay changes. */
export type StayAllows = {
  checkIn: boolean;
  rotateGuestLink: boolean;
  revealPin: boolean;
  revokeKey: boolean;
  /** Any stay change at all for this member (the panel renders even once none applies any more). */
  changeStay: boolean;
  stay: StayChanges;
  deleteGuest: boolean;
  staffCodes: boolean;
  auditLog: boolean;
};

const notStarted = (status: string) => status === 'held' || status === 'confirmed';

/**
 * The desk's rules for one reservation (issue 15; issue 29, 5): which actions a member of `role`
 * may take on it at `now`. Pure; the SQL functions behind each action still refuse what these
 * rules would hide, so this decides what is offered, never what is allowed to happen.
 */
export function stayAllows({
  role,
  reservation: r,
  now,
}: {
  role: Role;
  reservation: StayFacts;
  now: Date;
}): StayAllows {
  const hasGuest = r.guest !== null;
  const canChange = can(role, 'stays.change');
  const canRevoke = can(role, 'keys.revoke');
  const live = notStarted(r.status) || r.status === 'checked_in';
  const running = live && r.endsAt > now;
  const hasLiveKey = r.accessKeys.some(
    (k) => k.kind !== 'backup' && (k.status === 'pre_issued' || k.status === 'active'),
  );
  return {
    checkIn: can(role, 'checkin.complete') && !r.checkIn && hasGuest && notStarted(r.status),
    rotateGuestLink:
      can(role, 'guest_links.rotate') && hasGuest && r.status !== 'cancelled' && r.status !== 'checked_out',
    revealPin: can(role, 'keys.reveal_pin'),
    revokeKey: canRevoke,
    changeStay: canChange || canRevoke,
    stay: {
      checkOut: canChange && r.status === 'checked_in',
      move: canChange && running,
      changeDates: canChange && running,
      noShow: canChange && notStarted(r.status) && r.startsAt <= now,
      newKey: canRevoke && running && hasGuest && !hasLiveKey,
      cancel: canChange && notStarted(r.status) && r.startsAt > now,
      correctGuest: canChange && hasGuest,
    },
    deleteGuest: can(role, 'staff.manage'),
    staffCodes: can(role, 'staff_codes.manage'),
    auditLog: can(role, 'audit.view'),
  };
}
