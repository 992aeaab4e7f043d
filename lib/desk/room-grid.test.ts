import { describe, expect, it } from 'vitest';
import { adminClient } from '../../tooling/testing/fixtures';
import { createDeskTenant, createStay } from '../../tooling/testing/desk-fixtures';
import { gridCells, roomGrid, stayDays, type GridBar } from './room-grid';
import { calendarDay } from '../bookings/stay-window';

const z = (iso: string) => new Date(iso);

describe('the room-by-day grid', () => {
  it('a stay covers its nights; one that starts and ends on a date (or crosses one midnight) covers one day', () => {
    const day = (d: string) => calendarDay(d)!;
    expect(stayDays(z('2030-01-12T06:00:00Z'), z('2030-01-14T01:00:00Z'), 'Asia/Tokyo')).toEqual({
      first: day('2030-01-12'),
      last: day('2030-01-13'),
    });
    expect(stayDays(z('2030-01-11T01:00:00Z'), z('2030-01-11T03:00:00Z'), 'Asia/Tokyo')).toEqual({
      first: day('2030-01-11'),
      last: day('2030-01-11'),
    });
    expect(stayDays(z('2030-01-11T13:00:00Z'), z('2030-01-11T17:00:00Z'), 'Asia/Tokyo')).toEqual({
      first: day('2030-01-11'),
      last: day('2030-01-11'),
    });
  });

  it('merges the days a stay covers into one cell and leaves each free day its own', () => {
    const bar = (reservationId: string, firstDay: number, lastDay: number): GridBar => ({
      reservationId,
      guestName: reservationId,
      status: 'confirmed',
      startsAt: z('2030-01-01T00:00:00Z'),
      endsAt: z('2030-01-02T00:00:00Z'),
      firstDay,
      lastDay,
      clippedStart: false,
      clippedEnd: false,
    });
    const a = bar('a', 0, 1);
    const b = bar('b', 3, 3);
    const c = bar('c', 3, 3);
    expect(gridCells([a, b, c], 5)).toEqual([
      { day: 0, span: 2, bars: [a] },
      { day: 2, span: 1, bars: [] },
      { day: 3, span: 1, bars: [b, c] },
      { day: 4, span: 1, bars: [] },
    ]);
  });

  it("shows every room that is not archived with its stays as bars clipped to the range, and nothing of another tenant's", async () => {
    const { tenantId, facilities } = await createDeskTenant([
      { name: 'Inn', timeZone: 'Asia/Tokyo', rooms: ['101', '102', '103', 'Old'] },
      {
        name: 'Meeting rooms',
        timeZone: 'Asia/Tokyo',
        rooms: ['Meeting A'],
        hourly: { opensAt: '09:00', closesAt: '18:00', rateCents: 3000, rateName: 'Hourly' },
      },
    ]);
    const inn = facilities[0]!.rooms;
    const meeting = facilities[1]!.rooms;
    const stay = (roomId: string, from: string, to: string, guestName: string, status?: 'cancelled' | 'checked_in') =>
      createStay({ tenantId, roomId, startsAt: z(from), endsAt: z(to), guestName, status });
    // Local dates (Tokyo): 8–12 Jan, 12–14 Jan, 15–20 Jan, 1–3 Jan (outside), 12–13 Jan cancelled.
    const before = await stay(inn['101']!, '2030-01-08T06:00:00Z', '2030-01-12T01:00:00Z', 'Early Bird', 'checked_in');
    const inside = await stay(inn['101']!, '2030-01-12T06:00:00Z', '2030-01-14T01:00:00Z', 'Mid Week');
    const after = await stay(inn['102']!, '2030-01-15T06:00:00Z', '2030-01-20T01:00:00Z', 'Long Stay');
    await stay(inn['102']!, '2030-01-01T06:00:00Z', '2030-01-03T01:00:00Z', 'Gone Before');
    await stay(inn['103']!, '2030-01-12T06:00:00Z', '2030-01-13T01:00:00Z', 'Called Off', 'cancelled');
    const meetingId = await stay(meeting['Meeting A']!, '2030-01-11T01:00:00Z', '2030-01-11T03:00:00Z', 'Board');
    await stay(inn.Old!, '2030-01-12T06:00:00Z', '2030-01-13T01:00:00Z', 'In Archived');
    const admin = await adminClient();
    await admin.query(`update rooms set archived_at = now() where id = $1`, [inn.Old]);
    await admin.end();
    const other = await createDeskTenant([{ name: 'Other', timeZone: 'Asia/Tokyo', rooms: ['101'] }]);
    await createStay({
      tenantId: other.tenantId,
      roomId: other.facilities[0]!.rooms['101']!,
      startsAt: z('2030-01-12T06:00:00Z'),
      endsAt: z('2030-01-13T01:00:00Z'),
      guestName: 'Not Ours',
    });

    const grid = await roomGrid({ tenantId, from: '2030-01-10', days: 7 });
    expect(grid.days).toEqual([
      '2030-01-10',
      '2030-01-11',
      '2030-01-12',
      '2030-01-13',
      '2030-01-14',
      '2030-01-15',
      '2030-01-16',
    ]);
    expect(grid.rooms.map((r) => r.label)).toEqual(['101', '102', '103', 'Meeting A']);
    const bars = (label: string) => grid.rooms.find((r) => r.label === label)!.bars;
    expect(bars('101')).toEqual([
      expect.objectContaining({
        reservationId: before,
        firstDay: 0,
        lastDay: 1,
        clippedStart: true,
        clippedEnd: false,
        status: 'checked_in',
      }),
      expect.objectContaining({
        reservationId: inside,
        firstDay: 2,
        lastDay: 3,
        clippedStart: false,
        clippedEnd: false,
        guestName: 'Mid Week',
      }),
    ]);
    expect(bars('102')).toEqual([
      expect.objectContaining({ reservationId: after, firstDay: 5, lastDay: 6, clippedStart: false, clippedEnd: true }),
    ]);
    expect(bars('103')).toEqual([]);
    expect(bars('Meeting A')).toEqual([expect.objectContaining({ reservationId: meetingId, firstDay: 1, lastDay: 1 })]);
    expect(grid.rooms.find((r) => r.label === 'Meeting A')!.bookingUnit).toBe('hour');

    const onlyMeetings = await roomGrid({
      tenantId,
      from: '2030-01-10',
      days: 7,
      facilityId: facilities[1]!.facilityId,
    });
    expect(onlyMeetings.rooms.map((r) => r.label)).toEqual(['Meeting A']);
    // Another tenant's facility id shows nothing of it.
    const foreign = await roomGrid({
      tenantId,
      from: '2030-01-10',
      days: 7,
      facilityId: other.facilities[0]!.facilityId,
    });
    expect(foreign.rooms).toEqual([]);
  });
});
