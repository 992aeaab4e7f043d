import { hashGuestToken, isGuestTokenShape } from '../auth/guest-links';
import { asService, runStatements, statement, type Statement } from '../db/tx';
import type { KeyKind } from '../db/generated/enums';
import type { KeyState } from '../keys/lifecycle';
import { AppError } from '../errors';
import { issueCheckInKey } from '../stays/issue-check-in-key';
import { forGuest, toGuestKeyView, type KeyView } from '../keys/key-view';
import type { GuestLockWindow, GuestRegistrationState, GuestStatus, GuestStayStatus } from './guest-view';
import { REGISTRATION_STATE_SQL, registrationStateOf } from '../registration/registration-state';

export type GuestStay = {
  tenantId: string;
  reservationId: string;
  roomLabel: string;
  facilityName: string;
  timeZone: string;
  startsAt: Date;
  endsAt: Date;
  status: GuestStayStatus;
  /** What a guest needs at the door, from the facility's own columns (migration 20261201190000). */
  facility: {
    address: string | null;
    phone: string | null;
    email: string | null;
    /** Local time of day in the facility's zone, "HH:MM". */
    checkOutTime: string;
    bookingUnit: 'night' | 'hour';
    /** facilities.guest_info as stored: read it with `readGuestInfo`. */
    guestInfo: unknown;
  };
  /** What the stay still needs and allows (SQL app_guest_self_service, issue 31). */
  selfService: GuestSelfService;
};

/** A stay's self-service state as its guest link reads it (app_guest_self_service). */
export type GuestSelfService = {
  checkInMode: 'desk' | 'self';
  /** When the guest may check in from the phone (`self`), whatever the mode. */
  selfCheckInOpensAt: Date;
  checkedIn: boolean;
  registration: 'none' | 'jp';
  registrationComplete: boolean;
  paymentMode: 'none' | 'online' | 'at_property';
  paid: boolean;
};

/** A stay that ended (cancelled or checked out) as its still-valid link may show it: no key, no guest. */
export type EndedGuestStay = {
  status: 'cancelled' | 'checked_out';
  roomLabel: string;
  startsAt: Date;
  endsAt: Date;
  facilityName: string;
  timeZone: string;
  address: string | null;
  phone: string | null;
  email: string | null;
};

/** The stay's part of a `GuestStatus`, from either kind of stay read. */
export function statusStayOf(
  stay: Pick<GuestStay, 'status' | 'startsAt' | 'endsAt' | 'roomLabel'>,
): GuestStatus['stay'] {
  return {
    status: stay.status,
    startsAt: stay.startsAt.toISOString(),
    endsAt: stay.endsAt.toISOString(),
    roomLabel: stay.roomLabel,
  };
}

function tokenHashHex(token: string): string {
  return Buffer.from(hashGuestToken(token)).toString('hex');
}

type StayRow = {
  tenant_id: string;
  reservation_id: string;
  starts_at: Date;
  ends_at: Date;
  status: GuestStayStatus;
  room_label: string;
  facility_name: string;
  time_zone: string;
  address: string | null;
  phone: string | null;
  email: string | null;
  check_out_time: string;
  booking_unit: 'night' | 'hour';
  guest_info: unknown;
  check_in_mode: 'desk' | 'self';
  self_check_in_opens_at: Date;
  checked_in: boolean;
  registration: 'none' | 'jp';
  registration_complete: boolean;
  payment_mode: 'none' | 'online' | 'at_property';
  paid: boolean;
};

/**
 * The link's own reservation (row-level security shows a guest no other), with its facility: one
 * statement (the link, its reservation, room and facility), where reading them through the models
 * took four round trips.
 */
const STAY_SQL = `select gl.tenant_id, gl.reservation_id, r.starts_at, r.ends_at, r.status::text as status,
         r.room_label_snapshot as room_label, f.name as facility_name, f.time_zone, f.address, f.phone, f.email,
         to_char(f.check_out_time, 'HH24:MI') as check_out_time, f.booking_unit::text as booking_unit, f.guest_info,
         s.check_in_mode::text as check_in_mode, s.self_check_in_opens_at, s.checked_in, s.registration::text as registration,
         s.registration_complete, s.payment_mode::text as payment_mode, s.paid
    from guest_links gl
    join reservations r on r.tenant_id = gl.tenant_id and r.id = gl.reservation_id
    join rooms ro on ro.tenant_id = r.tenant_id and ro.id = r.room_id
    join facilities f on f.tenant_id = ro.tenant_id and f.id = ro.facility_id
    cross join app_guest_self_service() s`;

/** The link's stay's keys, newest first (what `pickGuestKey` picks from), named by the link itself as well as by RLS. */
const KEYS_SQL = `select k.id, k.status::text as status, k.pin, k.valid_from as "validFrom", k.expires_at as "expiresAt",
         k.vendor_sync::text as "vendorSync", k.revoked_reason as "revokedReason", k.check_in_id as "checkInId",
         k.created_at as "createdAt", k.kind::text as kind, k.backup_for as "backupFor",
         (select case when bool_or(c.rewindow) then 'updating' when bool_or(c.rewindow_error is not null) then 'failed' end
            from key_lock_codes c where c.tenant_id = k.tenant_id and c.key_id = k.id) as "lockWindow"
    from access_keys k
   where (k.tenant_id, k.reservation_id) in (select gl.tenant_id, gl.reservation_id from guest_links gl)
   order by k.created_at desc, k.id asc`;

/** A link whose stay was cancelled or checked out (app_guest_ended_stay: the link still valid, the guest not deleted). */
const ENDED_SQL = `select status::text as status, room_label as "roomLabel", starts_at as "startsAt", ends_at as "endsAt",
         facility_name as "facilityName", time_zone as "timeZone", address, phone, email
    from app_guest_ended_stay()`;

type KeyRow = {
  id: string;
  status: KeyState;
  pin: string;
  validFrom: Date;
  expiresAt: Date;
  vendorSync: 'pending' | 'synced' | 'failed';
  revokedReason: string | null;
  checkInId: string | null;
  createdAt: Date;
  kind: KeyKind;
  backupFor: string | null;
  /** Whether its doors' codes hold its current window (`GuestStatus.lockWindow`). */
  lockWindow: GuestLockWindow;
};

/** The shown key's `lockWindow`: a backup code shown for a key stands on the lock by itself. */
export function lockWindowOf(keys: Pick<KeyRow, 'id' | 'lockWindow'>[], key: { id: string } | null): GuestLockWindow {
  return (key && keys.find((k) => k.id === key.id)?.lockWindow) ?? null;
}

const LINK_READS = { stay: STAY_SQL, keys: KEYS_SQL, ended: ENDED_SQL, registration: REGISTRATION_STATE_SQL } as const;

/**
 * Reads what a guest link names (`reads`, in order), as app_anon holding that link, in ONE round trip
 * (`runStatements`: one implicit transaction, so the stay, its keys and the ended stay are one snapshot).
 * With `limit`, the request's rate limit is counted first in the same round trip; a refusal is returned
 * as `refused` (with what was read), for the caller to throw or to show the stay without its key.
 */
async function readLink(token: string, reads: (keyof typeof LINK_READS)[], limit?: Statement<void>) {
  // The limit's refusal is kept, not thrown: the reads' rows are still mapped (and dropped by the caller).
  let refused: unknown = null;
  const counted: Statement<void> | null = limit
    ? {
        sql: limit.sql,
        rows: (rows) => {
          try {
            limit.rows(rows);
          } catch (error) {
            refused = error;
          }
        },
      }
    : null;
  const results = await runStatements({ role: 'app_anon', guestTokenHash: tokenHashHex(token) }, [
    ...(counted ? [counted] : []),
    ...reads.map((read) => statement(LINK_READS[read])),
  ]);
  if (counted) results.shift();
  // A read not asked for has no rows (indexOf -1).
  const rowsOf = (read: keyof typeof LINK_READS) => results[reads.indexOf(read)] ?? [];
  const stays = rowsOf('stay');
  const ended = rowsOf('ended');
  return {
    stay: stays.length === 1 ? stayOf(stays[0] as StayRow) : null,
    keys: rowsOf('keys') as KeyRow[],
    ended: ended.length === 1 ? (ended[0] as EndedGuestStay) : null,
    registration: registrationStateOf(rowsOf('registration') as Record<string, unknown>[]) as GuestRegistrationState,
    refused,
  };
}

function stayOf(r: StayRow): GuestStay {
  return {
    tenantId: r.tenant_id,
    reservationId: r.reservation_id,
    roomLabel: r.room_label,
    facilityName: r.facility_name,
    timeZone: r.time_zone,
    startsAt: r.starts_at,
    endsAt: r.ends_at,
    status: r.status,
    facility: {
      address: r.address,
      phone: r.phone,
      email: r.email,
      checkOutTime: r.check_out_time,
      bookingUnit: r.booking_unit,
      guestInfo: r.guest_info,
    },
    selfService: {
      checkInMode: r.check_in_mode,
      selfCheckInOpensAt: r.self_check_in_opens_at,
      checkedIn: r.checked_in,
      registration: r.registration,
      registrationComplete: r.registration_complete,
      paymentMode: r.payment_mode,
      paid: r.paid,
    },
  };
}

/** At a self check-in facility before the guest checks in: no key is shown (the guest policy hides them too). */
export function awaitsSelfCheckIn(stay: Pick<GuestStay, 'selfService'>): boolean {
  return stay.selfService.checkInMode === 'self' && !stay.selfService.checkedIn;
}

/** The self check-in part of a `GuestStatus`: null where the desk checks guests in. */
export function selfCheckInOf(stay: Pick<GuestStay, 'selfService'>): GuestStatus['selfCheckIn'] {
  return stay.selfService.checkInMode === 'self'
    ? { opensAt: stay.selfService.selfCheckInOpensAt.toISOString() }
    : null;
}

/**
 * The key a guest link shows, without issuing anything: the active key, else for a checked-in stay
 * its latest stay key, else the pre-issued key, else the most recent key so the guest sees why.
 * `issue` says a checked-in stay has no stay key yet (the caller that may issue one does).
 * A backup code stands in for a key whose code has not reached the lock, while it does.
 */
function pickGuestKey(keys: KeyRow[], stay: GuestStay, now: Date): { key: KeyView | null; issue: boolean } {
  // The guest policy already shows no key here; this keeps the rule if a read ever goes around it.
  if (awaitsSelfCheckIn(stay)) return { key: null, issue: false };
  const backups = keys.filter((k) => k.kind === 'backup');
  const own = keys.filter((k) => k.kind !== 'backup');
  const shown = (key: KeyRow) => {
    const backup = backups.find((b) => b.backupFor === key.id && b.status === key.status && b.vendorSync === 'synced');
    return toGuestKeyView(key.vendorSync !== 'synced' && backup ? backup : key, now);
  };
  const active = own.find((k) => k.status === 'active');
  if (active) return { key: shown(active), issue: false };
  if (stay.status === 'checked_in') {
    const stayKeys = own.filter((k) => k.checkInId !== null);
    const fallback = stayKeys[0] ?? own[0] ?? keys[0];
    if (stayKeys.length > 0 || stay.endsAt <= now) return { key: fallback ? shown(fallback) : null, issue: false };
    const live = own.find((k) => k.status === 'pre_issued') ?? own[0];
    return { key: live ? shown(live) : null, issue: true };
  }
  const live = own.find((k) => k.status === 'pre_issued') ?? own[0];
  return { key: live ? shown(live) : null, issue: false };
}

/** What a guest link shows, read as app_anon through the link itself; `null` for an unknown or expired link. */
export async function getGuestStay(token: string): Promise<GuestStay | null> {
  if (!isGuestTokenShape(token)) return null;
  return (await readLink(token, ['stay'])).stay;
}

/**
 * A link whose stay was cancelled or checked out, while the link itself is still valid (not rotated,
 * within its expiry, guest not deleted): the property's contact for the page, never a key. `null`
 * for any other token, including a live stay's (`getGuestStay` reads those).
 */
export async function getEndedGuestStay(token: string): Promise<EndedGuestStay | null> {
  if (!isGuestTokenShape(token)) return null;
  return (await readLink(token, ['ended'])).ended;
}

/**
 * The stay and the key a guest link shows, for the open page's poll: one read-only transaction as
 * app_anon in one round trip that issues nothing (a checked-in stay without its key reads as not
 * ready, the key endpoint issues it). A cancelled or checked-out stay answers its status and no key;
 * an unknown, rotated or expired link, or a deleted guest's, `null`. With `limit` (the poll's rate
 * limit), it is counted in the same round trip and a refusal throws `rate_limited`.
 */
export async function getGuestStatus(
  token: string,
  options: { now?: Date; limit?: Statement<void> } = {},
): Promise<GuestStatus | null> {
  if (!isGuestTokenShape(token)) return null;
  const { stay, keys, ended, registration, refused } = await readLink(
    token,
    ['stay', 'keys', 'ended', 'registration'],
    options.limit,
  );
  if (refused) throw refused;
  if (stay) {
    const { key } = pickGuestKey(keys, stay, options.now ?? new Date());
    return {
      stay: statusStayOf(stay),
      key,
      lockWindow: lockWindowOf(keys, key),
      selfCheckIn: selfCheckInOf(stay),
      registration,
    };
  }
  return ended ? { stay: statusStayOf(ended), key: null, lockWindow: null } : null;
}

/** A live stay as its link reads it, with the stay's keys: what `guestKeyOf` picks from. */
export type GuestStayRead = { stay: GuestStay; keys: KeyRow[]; registration?: GuestRegistrationState };

/**
 * The stay a guest link shows and its keys, in one read-only transaction (one round trip) as app_anon;
 * `null` for an unknown, rotated or expired link, a deleted guest's, or a stay that ended
 * (`getEndedGuestStay`). With `limit`, the request's rate limit is counted in the same round trip, and
 * `refused` is its refusal (null when it allowed the request).
 */
export async function readGuestStay(
  token: string,
  limit?: Statement<void>,
): Promise<(GuestStayRead & { refused: unknown }) | null> {
  if (!isGuestTokenShape(token)) return null;
  const { stay, keys, registration, refused } = await readLink(token, ['stay', 'keys', 'registration'], limit);
  return stay ? { stay, keys, registration, refused } : null;
}

/**
 * `readGuestStay` for a guest's request about their live stay: its rate limit's refusal thrown, and an unknown,
 * rotated or expired link (or an ended stay) `not_found`.
 */
export async function requireGuestStay(token: string, limit?: Statement<void>): Promise<GuestStayRead> {
  const read = await readGuestStay(token, limit);
  if (read?.refused) throw read.refused;
  if (!read) throw new AppError('not_found', 'This key link is unknown or has expired.');
  return read;
}

/**
 * The key a guest link opens, from what `readGuestStay` read: the stay key once checked in (issued
 * if needed, idempotent), else the pre-issued key; when neither is live, the most recent key so the
 * guest sees why. A stay key that staff revoked is shown as revoked: a guest link never issues a
 * replacement. The PIN of an ended key, or of one the lock refused, is never in the answer.
 */
export async function guestKeyOf({ stay, keys }: GuestStayRead): Promise<KeyView & { roomLabel: string }> {
  const { tenantId, reservationId } = stay;
  if (awaitsSelfCheckIn(stay)) {
    throw new AppError('check_in_required', 'Check in on this page to get the door code.', {
      opensAt: stay.selfService.selfCheckInOpensAt.toISOString(),
    });
  }
  const picked = pickGuestKey(keys, stay, new Date());
  if (picked.issue) {
    const checkIns = await asService({ tenantId }, (tx) =>
      tx.checkIn.findMany({ where: { tenantId, reservationId }, select: { id: true } }),
    );
    if (checkIns.length === 1) {
      const guest = { type: 'guest' as const, id: reservationId, label: 'guest link' };
      return {
        ...forGuest(await issueCheckInKey({ tenantId, checkInId: checkIns[0]!.id, actor: guest })),
        roomLabel: stay.roomLabel,
      };
    }
  }
  if (!picked.key) throw new AppError('reservation_not_ready', 'There is no key for this stay yet.');
  return { ...picked.key, roomLabel: stay.roomLabel };
}

/**
 * The key a guest link opens (`guestKeyOf` of `readGuestStay`); `not_found` for an unknown, rotated
 * or expired link, a deleted guest's, or a stay that ended. With `limit` (the key endpoint's rate limit),
 * it is counted in the read's round trip and a refusal throws `rate_limited`, whatever the link.
 */
export async function getGuestKey(token: string, limit?: Statement<void>): Promise<KeyView & { roomLabel: string }> {
  if (!isGuestTokenShape(token)) throw new AppError('not_found', 'This key link is unknown or has expired.');
  const { stay, keys, refused } = await readLink(token, ['stay', 'keys'], limit);
  if (refused) throw refused;
  if (!stay) throw new AppError('not_found', 'This key link is unknown or has expired.');
  return guestKeyOf({ stay, keys });
}
