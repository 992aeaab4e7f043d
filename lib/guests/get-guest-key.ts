import { hashGuestToken, isGuestTokenShape } from '../auth/guest-links';
import { asGuest, asService } from '../db/tx';
import { AppError } from '../errors';
import { issueCheckInKey } from '../stays/issue-check-in-key';
import { forGuest, toGuestKeyView, type KeyView } from '../keys/key-view';

export type GuestStay = {
  tenantId: string;
  reservationId: string;
  roomLabel: string;
  facilityName: string;
  timeZone: string;
  startsAt: Date;
  endsAt: Date;
  status: string;
};

function tokenHashHex(token: string): string {
  return Buffer.from(hashGuestToken(token)).toString('hex');
}

/** What a guest link shows, read as app_anon through the link itself; `null` for an unknown or expired link. */
export async function getGuestStay(token: string): Promise<GuestStay | null> {
  if (!isGuestTokenShape(token)) return null;
  return asGuest({ guestTokenHash: tokenHashHex(token) }, async (tx) => {
    const links = await tx.guestLink.findMany({ select: { tenantId: true, reservationId: true } });
    if (links.length !== 1) return null;
    const { tenantId, reservationId } = links[0]!;
    const reservations = await tx.reservation.findMany({
      where: { tenantId, id: reservationId },
      select: {
        startsAt: true,
        endsAt: true,
        status: true,
        roomLabelSnapshot: true,
        room: { select: { facility: { select: { name: true, timeZone: true } } } },
      },
    });
    if (reservations.length !== 1) return null;
    const r = reservations[0]!;
    return {
      tenantId,
      reservationId,
      roomLabel: r.roomLabelSnapshot,
      facilityName: r.room.facility.name,
      timeZone: r.room.facility.timeZone,
      startsAt: r.startsAt,
      endsAt: r.endsAt,
      status: r.status,
    };
  });
}

/**
 * The key a guest link opens: the stay key once checked in (issued if needed, idempotent), else
 * the pre-issued key; when neither is live, the most recent key so the guest sees why. A stay key
 * that staff revoked is shown as revoked: a guest link never issues a replacement. The PIN of an
 * ended key, or of one the lock refused, is never in the answer (`toGuestKeyView`).
 */
export async function getGuestKey(token: string): Promise<KeyView & { roomLabel: string }> {
  const stay = await getGuestStay(token);
  if (!stay) throw new AppError('not_found', 'This key link is unknown or has expired.');
  const { tenantId, reservationId } = stay;
  const keys = await asGuest({ guestTokenHash: tokenHashHex(token) }, (tx) =>
    tx.accessKey.findMany({
      where: { tenantId, reservationId },
      select: {
        id: true,
        status: true,
        pin: true,
        validFrom: true,
        expiresAt: true,
        vendorSync: true,
        revokedReason: true,
        checkInId: true,
        createdAt: true,
        kind: true,
        backupFor: true,
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    }),
  );
  const backups = keys.filter((k) => k.kind === 'backup');
  const own = keys.filter((k) => k.kind !== 'backup');
  // A backup code stands in for a key whose code has not reached the lock: shown while it does.
  const shown = (key: (typeof keys)[number]) => {
    const backup = backups.find((b) => b.backupFor === key.id && b.status === key.status && b.vendorSync === 'synced');
    const chosen = key.vendorSync !== 'synced' && backup ? backup : key;
    return { ...toGuestKeyView(chosen), roomLabel: stay.roomLabel };
  };
  const active = own.find((k) => k.status === 'active');
  if (active) return shown(active);
  if (stay.status === 'checked_in') {
    const stayKeys = own.filter((k) => k.checkInId !== null);
    if (stayKeys.length > 0 || stay.endsAt <= new Date()) return shown(stayKeys[0] ?? own[0] ?? keys[0]!);
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
  const live = own.find((k) => k.status === 'pre_issued') ?? own[0];
  if (!live) throw new AppError('reservation_not_ready', 'There is no key for this stay yet.');
  return shown(live);
}
