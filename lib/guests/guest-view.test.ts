import { describe, expect, it } from 'vitest';
import type { KeyView } from '../keys/key-view';
import { guestPhaseOf, guestViewOf, nextBoundary, shownPin, type GuestStatus } from './guest-view';

const NOW = Date.parse('2026-12-05T12:00:00Z');
const at = (hours: number) => new Date(NOW + hours * 3_600_000).toISOString();

const key = (over: Partial<KeyView> = {}): KeyView => ({
  id: 'k1',
  kind: 'guest',
  status: 'active',
  pin: '123456',
  validFrom: at(-1),
  expiresAt: at(20),
  vendorSync: 'synced',
  revokedReason: null,
  ...over,
});

const status = (k: KeyView | null, stay: Partial<GuestStatus['stay']> = {}): GuestStatus => ({
  stay: { status: 'checked_in', startsAt: at(-2), endsAt: at(20), roomLabel: '101', ...stay },
  key: k,
});

describe('guestViewOf', () => {
  it('at a self check-in facility shows the check-in, never a key, until the stay is checked in', () => {
    const selfStay = (k: KeyView | null, stayStatus: GuestStatus['stay']['status']): GuestStatus => ({
      ...status(k, { status: stayStatus, startsAt: at(30), endsAt: at(54) }),
      selfCheckIn: { opensAt: at(6) },
    });
    // Even a key the poll somehow carried is not shown before check-in.
    const closed = guestViewOf(selfStay(key({ status: 'pre_issued' }), 'confirmed'), NOW);
    expect(closed).toEqual({ kind: 'checkInClosed', opensAt: at(6) });
    expect(shownPin(closed)).toBeNull();
    expect(nextBoundary(selfStay(null, 'confirmed'), NOW)).toBe(Date.parse(at(6)));
    expect(guestViewOf(selfStay(null, 'confirmed'), Date.parse(at(6))).kind).toBe('checkInOpen');
    const checkedIn = selfStay(key({ validFrom: at(29), expiresAt: at(54) }), 'checked_in');
    expect(guestViewOf(checkedIn, NOW)).toMatchObject({ kind: 'scheduled', pin: '123456' });
  });

  it('shows a live, confirmed key that works now as ready, with its PIN', () => {
    const view = guestViewOf(status(key()), NOW);
    expect(view).toMatchObject({ kind: 'ready', pin: '123456' });
    expect(shownPin(view)).toBe('123456');
  });

  it('says when a pre-issued PIN for a stay days away starts working, not "ready"; ready once it does', () => {
    const pre = key({ status: 'pre_issued', validFrom: at(72), expiresAt: at(96) });
    const s = status(pre, { status: 'confirmed', startsAt: at(74), endsAt: at(96) });
    expect(guestViewOf(s, NOW)).toMatchObject({ kind: 'scheduled', pin: '123456' });
    expect(guestViewOf(s, Date.parse(pre.validFrom) - 1).kind).toBe('scheduled');
    expect(guestViewOf(s, Date.parse(pre.validFrom)).kind).toBe('ready');
  });

  it('shows "activating" without a PIN until the lock confirms it', () => {
    const view = guestViewOf(status(key({ vendorSync: 'pending' })), NOW);
    expect(view.kind).toBe('activating');
    expect(shownPin(view)).toBeNull();
  });

  it('never shows a dead PIN: revoked, expired, past its end before the sweep, refused by the lock', () => {
    const cases: [Partial<KeyView>, string][] = [
      [{ status: 'revoked', revokedReason: 'lost phone' }, 'revoked'],
      // An API answer never carries an ended key's PIN, but the view must not rely on that.
      [{ status: 'revoked', pin: '123456' }, 'revoked'],
      [{ status: 'expired' }, 'expired'],
      [{ status: 'active', expiresAt: at(0) }, 'expired'],
      [{ vendorSync: 'failed' }, 'failed'],
      [{ pin: null }, 'failed'],
    ];
    for (const [over, kind] of cases) {
      const view = guestViewOf(status(key(over)), NOW);
      expect({ over, kind: view.kind, pin: shownPin(view) }).toEqual({ over, kind, pin: null });
    }
  });

  it('says "not ready" without a key', () => {
    expect(guestViewOf(status(null, { status: 'confirmed' }), NOW).kind).toBe('notReady');
  });

  it('thanks the guest after the stay, and says a cancelled booking was cancelled, whatever the key', () => {
    expect(guestViewOf(status(key(), { status: 'checked_out' }), NOW).kind).toBe('thanks');
    expect(guestViewOf(status(key(), { endsAt: at(0) }), NOW).kind).toBe('thanks');
    expect(guestViewOf(status(key(), { endsAt: at(0.001) }), NOW).kind).toBe('ready');
    expect(guestViewOf(status(key(), { status: 'cancelled' }), NOW).kind).toBe('cancelled');
    expect(guestViewOf(status(null, { status: 'cancelled', endsAt: at(-5) }), NOW).kind).toBe('cancelled');
  });

  it('puts the after-the-stay views on their own pages', () => {
    expect(guestPhaseOf({ kind: 'thanks' })).toBe('thanks');
    expect(guestPhaseOf({ kind: 'cancelled' })).toBe('cancelled');
    for (const k of [key(), key({ status: 'revoked' }), null]) {
      expect(guestPhaseOf(guestViewOf(status(k), NOW))).toBe('live');
    }
  });

  it('knows the next instant the view changes by the clock alone: the key’s start, its end, the stay’s end', () => {
    const pre = key({ status: 'pre_issued', validFrom: at(2), expiresAt: at(30) });
    expect(nextBoundary(status(pre), NOW)).toBe(Date.parse(at(2)));
    expect(nextBoundary(status(pre), Date.parse(at(2)))).toBe(Date.parse(at(20)));
    expect(nextBoundary(status(null, { endsAt: at(5) }), NOW)).toBe(Date.parse(at(5)));
    expect(nextBoundary(status(null, { endsAt: at(-1) }), NOW)).toBeNull();
    expect(nextBoundary(null, NOW)).toBeNull();
  });
});
