import { describe, expect, it } from 'vitest';
import { adminClient } from '../../tooling/testing/fixtures';
import { createDeskTenant, createStay } from '../../tooling/testing/desk-fixtures';
import { escapeLike, searchReservations } from './search-reservations';

const from = new Date('2030-02-01T06:00:00Z');
const to = new Date('2030-02-02T01:00:00Z');

describe('searching reservations', () => {
  it("finds by guest name, room label, external reference or id prefix, and never another tenant's guest", async () => {
    const { tenantId, facilities } = await createDeskTenant([
      { name: 'Inn', timeZone: 'Asia/Tokyo', rooms: ['102', '305', '401'] },
    ]);
    const rooms = facilities[0]!.rooms;
    const kenji = await createStay({
      tenantId,
      roomId: rooms['102']!,
      startsAt: from,
      endsAt: to,
      guestName: 'Kenji Sato',
      externalRef: 'cal_AB12',
    });
    const percent = await createStay({
      tenantId,
      roomId: rooms['305']!,
      startsAt: from,
      endsAt: to,
      guestName: '100% Guest',
    });
    const under = await createStay({
      tenantId,
      roomId: rooms['401']!,
      startsAt: from,
      endsAt: to,
      guestName: 'Snake_Case',
    });
    const other = await createDeskTenant([{ name: 'Other', timeZone: 'Asia/Tokyo', rooms: ['102'] }]);
    const foreign = await createStay({
      tenantId: other.tenantId,
      roomId: other.facilities[0]!.rooms['102']!,
      startsAt: from,
      endsAt: to,
      guestName: 'Kenji Satoshi',
      externalRef: 'cal_AB12',
    });
    const ids = async (query: string) => (await searchReservations({ tenantId, query })).map((r) => r.id).sort();

    expect(await ids('kenji')).toEqual([kenji]);
    expect(await ids('  SATO ')).toEqual([kenji]);
    expect(await ids('Satoshi')).toEqual([]);
    expect(await ids('102')).toEqual([kenji]);
    expect(await ids('ab12')).toEqual([kenji]);
    expect(await ids(kenji.slice(0, 8))).toEqual([kenji]);
    expect(await ids(kenji.slice(0, 8).toUpperCase())).toEqual([kenji]);
    expect(await ids(foreign.slice(0, 8))).toEqual([]);
    expect(await ids(foreign)).toEqual([]);
    expect(await ids('')).toEqual([]);

    // LIKE's wildcards match only themselves.
    expect(await ids('%')).toEqual([percent]);
    expect(await ids('_')).toEqual([kenji, under].sort()); // Snake_Case, and cal_AB12's reference
    expect(await ids('Sn_ke')).toEqual([]);
    expect(await ids('K%o')).toEqual([]);
    expect(await ids('!')).toEqual([]);

    // Input shaped like SQL is only text.
    expect(await ids("' or 1=1 --")).toEqual([]);
    expect(await ids("x'); delete from reservations; --")).toEqual([]);
    const admin = await adminClient();
    const { rows } = await admin.query(`select count(*)::int as n from reservations where tenant_id = $1`, [tenantId]);
    await admin.end();
    expect(rows[0].n).toBe(3);

    const [hit] = await searchReservations({ tenantId, query: 'Kenji' });
    expect(hit).toMatchObject({
      roomLabel: '102',
      facilityName: 'Inn',
      guestName: 'Kenji Sato',
      externalRef: 'cal_AB12',
      timeZone: 'Asia/Tokyo',
    });
  });

  it('escapes every LIKE wildcard and the escape character itself', () => {
    expect(escapeLike('50%_off!')).toBe('50!%!_off!!');
  });
});
