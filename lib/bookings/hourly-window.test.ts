import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { adminClient, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { createDeskTenant } from '../../tooling/testing/desk-fixtures';
import { bookGroup } from './book-group';
import { hourlyRefusal, hourlyWindow } from './hourly-window';
import { zonedToday } from './stay-window';

const TOKYO = { timeZone: 'Asia/Tokyo', opensAt: '09:00', closesAt: '18:00' };
const NEW_YORK = { timeZone: 'America/New_York', opensAt: '08:00', closesAt: '20:00' };
const NOW = new Date('2030-03-01T00:00:00Z');
const z = (iso: string) => new Date(iso);

describe('an hourly window', () => {
  it('fits when it starts on the hour, lasts whole hours and lies within the day’s opening hours (local)', () => {
    // 10:00–12:00 and 09:00–18:00 in Tokyo.
    expect(hourlyRefusal(z('2030-03-05T01:00:00Z'), z('2030-03-05T03:00:00Z'), TOKYO)).toBeNull();
    expect(hourlyRefusal(z('2030-03-05T00:00:00Z'), z('2030-03-05T09:00:00Z'), TOKYO)).toBeNull();
    // 08:00–09:00 EST is 13:00–14:00 UTC.
    expect(hourlyRefusal(z('2030-03-05T13:00:00Z'), z('2030-03-05T14:00:00Z'), NEW_YORK)).toBeNull();
  });

  it('is refused before opening, after closing, across midnight, off the hour or for part of an hour', () => {
    expect(hourlyRefusal(z('2030-03-04T23:00:00Z'), z('2030-03-05T01:00:00Z'), TOKYO)).toBe('outside_opening_hours');
    expect(hourlyRefusal(z('2030-03-05T08:00:00Z'), z('2030-03-05T10:00:00Z'), TOKYO)).toBe('outside_opening_hours');
    expect(hourlyRefusal(z('2030-03-05T12:00:00Z'), z('2030-03-05T16:00:00Z'), TOKYO)).toBe('outside_opening_hours');
    expect(hourlyRefusal(z('2030-03-05T01:30:00Z'), z('2030-03-05T02:30:00Z'), TOKYO)).toBe('not_whole_hours');
    expect(hourlyRefusal(z('2030-03-05T01:00:00Z'), z('2030-03-05T02:30:00Z'), TOKYO)).toBe('not_whole_hours');
    expect(hourlyRefusal(z('2030-03-05T01:00:00Z'), z('2030-03-05T01:00:00Z'), TOKYO)).toBe('order');
    // 10:00 in Tokyo is 20:00 in New York the day before: fine in Tokyo, after closing there.
    expect(hourlyRefusal(z('2030-03-05T01:00:00Z'), z('2030-03-05T02:00:00Z'), TOKYO)).toBeNull();
    expect(hourlyRefusal(z('2030-03-05T01:00:00Z'), z('2030-03-05T02:00:00Z'), NEW_YORK)).toBe('outside_opening_hours');
  });

  it('is made from a date, a start and hours typed at the desk, naming what is wrong', () => {
    expect(hourlyWindow({ date: '2030-03-05', start: '10:00', hours: '2', opening: TOKYO, now: NOW })).toEqual({
      ok: true,
      startsAt: z('2030-03-05T01:00:00Z'),
      endsAt: z('2030-03-05T03:00:00Z'),
      hours: 2,
    });
    expect(hourlyWindow({ date: '', start: '', hours: '', opening: TOKYO, now: NOW })).toEqual({
      ok: false,
      errors: { date: 'required', start: 'required', hours: 'required' },
    });
    expect(hourlyWindow({ date: '2030-02-30', start: '25:00', hours: '0', opening: TOKYO, now: NOW })).toEqual({
      ok: false,
      errors: { date: 'invalid', start: 'invalid', hours: 'invalid' },
    });
    expect(hourlyWindow({ date: '2030-02-27', start: '10:30', hours: '1', opening: TOKYO, now: NOW })).toEqual({
      ok: false,
      errors: { date: 'past', start: 'notWholeHour' },
    });
    expect(hourlyWindow({ date: '2030-03-05', start: '08:00', hours: '2', opening: TOKYO, now: NOW })).toEqual({
      ok: false,
      errors: { start: 'outsideHours' },
    });
    expect(hourlyWindow({ date: '2030-03-05', start: '17:00', hours: '2', opening: TOKYO, now: NOW })).toEqual({
      ok: false,
      errors: { hours: 'outsideHours' },
    });
    // Today in Tokyo is 1 March (09:00 local at NOW): 09:00 has begun, 10:00 has not.
    expect(
      hourlyWindow({ date: '2030-03-01', start: '09:00', hours: '1', opening: TOKYO, now: z('2030-03-01T00:30:00Z') }),
    ).toEqual({
      ok: false,
      errors: { start: 'past' },
    });
  });
});

describe('booking an hourly facility', () => {
  it('books whole hours within opening hours, keeps the rate name, and refuses anything else with nothing held', async () => {
    const { tenantId, facilities } = await createDeskTenant([
      {
        name: 'Meeting rooms',
        timeZone: 'Asia/Tokyo',
        rooms: ['Meeting A'],
        hourly: { opensAt: '09:00', closesAt: '18:00', rateCents: 3000, rateName: 'Meeting room (hourly)' },
      },
    ]);
    const roomId = facilities[0]!.rooms['Meeting A']!;
    const tomorrow = zonedToday(new Date(Date.now() + 86_400_000), 'Asia/Tokyo');
    const local = (hhmm: string) => new Date(`${tomorrow}T${hhmm}:00+09:00`);
    const book = (startsAt: Date, endsAt: Date) =>
      bookGroup({
        tenantId,
        actor: TEST_ACTOR,
        source: 'api',
        guest: { name: 'Board Meeting' },
        reservations: [{ roomId, startsAt, endsAt }],
      });

    const group = await book(local('10:00'), local('12:00'));
    expect(group.reservations).toHaveLength(1);

    const refused = [
      [local('17:00'), local('19:00'), 'outside_opening_hours'],
      [local('07:00'), local('09:00'), 'outside_opening_hours'],
      [local('13:30'), local('14:30'), 'not_whole_hours'],
    ] as const;
    for (const [startsAt, endsAt, reason] of refused) {
      const error = await book(startsAt, endsAt).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({
        code: 'invalid_request',
        details: { reason, roomIds: [roomId], opensAt: '09:00', closesAt: '18:00', timeZone: 'Asia/Tokyo' },
      });
      expect((error as AppError).message).toContain('09:00–18:00 (Asia/Tokyo)');
    }

    const admin = await adminClient();
    const { rows } = await admin.query(
      `select plan_name_snapshot, starts_at, ends_at from reservations where tenant_id = $1`,
      [tenantId],
    );
    const guests = await admin.query(`select count(*)::int as n from guests where tenant_id = $1`, [tenantId]);
    await admin.end();
    expect(rows).toEqual([
      { plan_name_snapshot: 'Meeting room (hourly)', starts_at: local('10:00'), ends_at: local('12:00') },
    ]);
    expect(guests.rows[0].n).toBe(1);
  });
});
