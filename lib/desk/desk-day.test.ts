import { describe, expect, it } from 'vitest';
import { createDeskTenant, createStay } from '../../tooling/testing/desk-fixtures';
import { deskDay } from './desk-day';

// 12:00 on 15 January in Tokyo, 22:00 on 14 January in New York: two different "todays".
const NOW = new Date('2030-01-15T03:00:00Z');
const z = (iso: string) => new Date(iso);

describe("the desk's day", () => {
  it("sorts stays into arrivals, in house and departures by each facility's own today, never a cancelled one", async () => {
    const { tenantId, facilities } = await createDeskTenant([
      { name: 'Kyoto', timeZone: 'Asia/Tokyo', rooms: ['T1', 'T2', 'T3', 'T4', 'T5', 'T6', 'T7'] },
      { name: 'Brooklyn', timeZone: 'America/New_York', rooms: ['N1', 'N2', 'N3'] },
    ]);
    const t = facilities[0]!.rooms;
    const n = facilities[1]!.rooms;
    const stay = (
      roomId: string,
      from: string,
      to: string,
      guestName: string,
      status?: 'checked_in' | 'checked_out' | 'cancelled',
    ) => createStay({ tenantId, roomId, startsAt: z(from), endsAt: z(to), guestName, status });
    // Tokyo (UTC+9): today is 15 January.
    const arriving = await stay(t.T1!, '2030-01-15T06:00:00Z', '2030-01-16T01:00:00Z', 'Aiko Arrives');
    const inHouse = await stay(t.T2!, '2030-01-14T06:00:00Z', '2030-01-16T01:00:00Z', 'Ben Stays', 'checked_in');
    const leaving = await stay(t.T3!, '2030-01-13T06:00:00Z', '2030-01-15T01:00:00Z', 'Chie Leaves', 'checked_in');
    await stay(t.T4!, '2030-01-15T06:00:00Z', '2030-01-16T01:00:00Z', 'Dan Cancelled', 'cancelled');
    await stay(t.T5!, '2030-01-16T06:00:00Z', '2030-01-17T01:00:00Z', 'Emi Tomorrow');
    // From 22:00 tonight to 02:00 tomorrow, local: it arrives today.
    const lateNight = await stay(t.T6!, '2030-01-15T13:00:00Z', '2030-01-15T17:00:00Z', 'Fumi Late');
    const left = await stay(t.T7!, '2030-01-14T06:00:00Z', '2030-01-15T01:00:00Z', 'Goro Left', 'checked_out');
    // New York (UTC−5): today is 14 January.
    const nyArriving = await stay(n.N1!, '2030-01-14T20:00:00Z', '2030-01-15T15:00:00Z', 'Hana Brooklyn');
    await stay(n.N2!, '2030-01-15T20:00:00Z', '2030-01-16T15:00:00Z', 'Ichiro Tomorrow NY');
    const nyLeaving = await stay(n.N3!, '2030-01-13T20:00:00Z', '2030-01-14T15:00:00Z', 'Jun Leaves NY', 'checked_in');
    // Another tenant's stay today is never listed.
    const other = await createDeskTenant([{ name: 'Other', timeZone: 'Asia/Tokyo', rooms: ['X'] }]);
    await createStay({
      tenantId: other.tenantId,
      roomId: other.facilities[0]!.rooms.X!,
      startsAt: z('2030-01-15T06:00:00Z'),
      endsAt: z('2030-01-16T01:00:00Z'),
      guestName: 'Not Ours',
    });

    const day = await deskDay({ tenantId, now: NOW });
    expect(day.arrivals.map((s) => s.id).sort()).toEqual([arriving, lateNight, nyArriving].sort());
    expect(day.inHouse.map((s) => s.id).sort()).toEqual([inHouse, leaving, nyLeaving].sort());
    expect(day.departures.map((s) => s.id).sort()).toEqual([leaving, left, nyLeaving].sort());
    expect(day.arrivals.find((s) => s.id === nyArriving)).toMatchObject({
      roomLabel: 'N1',
      guestName: 'Hana Brooklyn',
      facilityName: 'Brooklyn',
      timeZone: 'America/New_York',
      status: 'confirmed',
    });
    const names = [...day.arrivals, ...day.inHouse, ...day.departures].map((s) => s.guestName);
    expect(names).not.toContain('Dan Cancelled');
    expect(names).not.toContain('Not Ours');
  });

  it('keeps a guest who overstayed by days in house, shows a deleted guest as such, and lists no past stay', async () => {
    const { adminClient } = await import('../../tooling/testing/fixtures');
    const { tenantId, facilities } = await createDeskTenant([
      { name: 'Kyoto', timeZone: 'Asia/Tokyo', rooms: ['A', 'B', 'C'] },
    ]);
    const { A, B, C } = facilities[0]!.rooms as Record<string, string>;
    // Years of past stays in room A, checked out or cancelled: none is today's.
    const past: string[] = [];
    for (let i = 1; i <= 6; i++)
      past.push(
        await createStay({
          tenantId,
          roomId: A!,
          startsAt: z(`${2030 - i}-03-01T06:00:00Z`),
          endsAt: z(`${2030 - i}-03-02T01:00:00Z`),
          guestName: `Past ${i}`,
          status: i % 2 ? 'checked_out' : 'cancelled',
        }),
      );
    // Checked in on 2 January, due out on the 5th, still in the room on the 15th.
    const overstay = await createStay({
      tenantId,
      roomId: B!,
      startsAt: z('2030-01-02T06:00:00Z'),
      endsAt: z('2030-01-05T01:00:00Z'),
      guestName: 'Kaori Overstays',
      status: 'checked_in',
    });
    // Arriving today, whose guest was deleted.
    const anonymous = await createStay({
      tenantId,
      roomId: C!,
      startsAt: z('2030-01-15T06:00:00Z'),
      endsAt: z('2030-01-16T01:00:00Z'),
      guestName: 'Erased Guest',
    });
    const admin = await adminClient();
    await admin.query(`update reservations set guest_id = null where id = $1`, [anonymous]);
    await admin.end();

    const day = await deskDay({ tenantId, now: NOW });
    expect(day.inHouse.map((s) => s.id)).toEqual([overstay]);
    expect(day.arrivals).toEqual([
      expect.objectContaining({
        id: anonymous,
        guestName: null,
        roomLabel: 'C',
        status: 'confirmed',
        timeZone: 'Asia/Tokyo',
      }),
    ]);
    expect(day.departures).toEqual([]);
    const listed = [...day.arrivals, ...day.inHouse, ...day.departures].map((s) => s.id);
    expect(listed.filter((id) => past.includes(id))).toEqual([]);
    expect(day.arrivals[0]!.startsAt).toBeInstanceOf(Date);
  });

  it('says when the guest arrived (their code first opened the door), null until then', async () => {
    const { adminClient } = await import('../../tooling/testing/fixtures');
    const { tenantId, facilities } = await createDeskTenant([
      { name: 'Kyoto', timeZone: 'Asia/Tokyo', rooms: ['A', 'B'] },
    ]);
    const { A, B } = facilities[0]!.rooms as Record<string, string>;
    const stay = (roomId: string, guestName: string) =>
      createStay({
        tenantId,
        roomId,
        startsAt: z('2030-01-15T05:00:00Z'),
        endsAt: z('2030-01-16T01:00:00Z'),
        guestName,
        status: 'checked_in',
      });
    const arrived = await stay(A!, 'Aiko Arrived');
    const notYet = await stay(B!, 'Ben Not Yet');
    const admin = await adminClient();
    await admin.query(`update reservations set arrived_at = '2030-01-15T06:02:00Z' where id = $1`, [arrived]);
    await admin.end();

    const day = await deskDay({ tenantId, now: NOW });
    expect(day.inHouse.find((s) => s.id === arrived)?.arrivedAt).toEqual(z('2030-01-15T06:02:00Z'));
    expect(day.inHouse.find((s) => s.id === notYet)?.arrivedAt).toBeNull();
  });
});
