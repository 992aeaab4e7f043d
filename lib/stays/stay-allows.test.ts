import { describe, expect, it } from 'vitest';
import { stayAllows, type StayFacts } from './stay-allows';

const HOUR = 3_600_000;
const now = new Date('2026-06-01T12:00:00Z');
const key = (kind: string, status: string) => ({ kind, status });

/** A confirmed stay of a named guest that starts in an hour, with no key yet. */
function stay(overrides: Partial<StayFacts> = {}): StayFacts {
  return {
    status: 'confirmed',
    startsAt: new Date(now.getTime() + HOUR),
    endsAt: new Date(now.getTime() + 25 * HOUR),
    guest: { name: 'Kenji Sato' },
    checkIn: null,
    accessKeys: [],
    ...overrides,
  };
}
const started = { startsAt: new Date(now.getTime() - HOUR) };
const ended = { startsAt: new Date(now.getTime() - 25 * HOUR), endsAt: new Date(now.getTime() - HOUR) };

describe('stayAllows', () => {
  it('offers a front desk member check-in, the guest link, a move, new dates and cancelling before arrival', () => {
    const a = stayAllows({ role: 'front_desk', reservation: stay(), now });
    expect(a).toEqual({
      checkIn: true,
      rotateGuestLink: true,
      revealPin: true,
      revokeKey: true,
      changeStay: true,
      stay: {
        checkOut: false,
        move: true,
        changeDates: true,
        noShow: false,
        newKey: true,
        cancel: true,
        correctGuest: true,
      },
      deleteGuest: false,
      staffCodes: true,
      auditLog: false,
    });
  });

  it('gives a manager guest deletion and the audit log on top', () => {
    const a = stayAllows({ role: 'manager', reservation: stay(), now });
    expect([a.deleteGuest, a.auditLog]).toEqual([true, true]);
  });

  it('swaps cancelling for no-show once the stay has started', () => {
    const a = stayAllows({ role: 'front_desk', reservation: stay(started), now });
    expect([a.stay.cancel, a.stay.noShow]).toEqual([false, true]);
    // At the very start it is a no-show, not a cancellation.
    const atStart = stayAllows({ role: 'front_desk', reservation: stay({ startsAt: now }), now });
    expect([atStart.stay.cancel, atStart.stay.noShow]).toEqual([false, true]);
  });

  it('offers check-out only to a checked-in stay, and check-in no more', () => {
    const a = stayAllows({ role: 'front_desk', reservation: stay({ ...started, status: 'checked_in' }), now });
    expect(a.stay.checkOut).toBe(true);
    expect(a.checkIn).toBe(false);
    expect([a.stay.cancel, a.stay.noShow, a.stay.move, a.stay.changeDates]).toEqual([false, false, true, true]);
    // A recorded check-in hides check-in whatever the status says.
    expect(stayAllows({ role: 'front_desk', reservation: stay({ checkIn: { createdAt: now } }), now }).checkIn).toBe(
      false,
    );
  });

  it('moves and re-dates only a stay that has not ended', () => {
    const a = stayAllows({ role: 'front_desk', reservation: stay({ ...ended, status: 'checked_in' }), now });
    expect([a.stay.move, a.stay.changeDates, a.stay.newKey, a.stay.checkOut]).toEqual([false, false, false, true]);
    const atEnd = stayAllows({ role: 'front_desk', reservation: stay({ endsAt: now }), now });
    expect([atEnd.stay.move, atEnd.stay.changeDates]).toEqual([false, false]);
  });

  it.each(['cancelled', 'checked_out'])('offers only the guest correction on a %s stay', (status) => {
    const a = stayAllows({ role: 'manager', reservation: stay({ status }), now });
    expect(a.checkIn).toBe(false);
    expect(a.rotateGuestLink).toBe(false);
    expect(a.stay).toEqual({
      checkOut: false,
      move: false,
      changeDates: false,
      noShow: false,
      newKey: false,
      cancel: false,
      correctGuest: true,
    });
  });

  it('offers a new key only while no guest key is live (a backup does not count)', () => {
    for (const status of ['pre_issued', 'active']) {
      const a = stayAllows({ role: 'front_desk', reservation: stay({ accessKeys: [key('guest', status)] }), now });
      expect(a.stay.newKey).toBe(false);
    }
    const ended = stayAllows({
      role: 'front_desk',
      reservation: stay({ accessKeys: [key('guest', 'revoked'), key('backup', 'active')] }),
      now,
    });
    expect(ended.stay.newKey).toBe(true);
  });

  it('without a guest: no check-in, guest link, new key or correction', () => {
    const a = stayAllows({ role: 'manager', reservation: stay({ guest: null }), now });
    expect([a.checkIn, a.rotateGuestLink, a.stay.newKey, a.stay.correctGuest]).toEqual([false, false, false, false]);
    expect([a.stay.move, a.stay.cancel]).toEqual([true, true]);
  });
});
