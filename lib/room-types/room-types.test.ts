import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, asRole, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { createFacility } from '../facilities/create-facility';
import { archiveRoomType, createRoomType, setRoomType, updateRoomType } from './save-room-type';
import { listRoomTypes } from './list-room-types';
import { ZRoomTypeFormSchema } from './room-type-input';

const PRICES = { description: '', capacity: 2, weekdayCents: 12000, weekendCents: 15000, holidayCents: null };

let admin: pg.Client;
let mine: Awaited<ReturnType<typeof createBookableTenant>>;
let theirs: Awaited<ReturnType<typeof createBookableTenant>>;

beforeAll(async () => {
  admin = await adminClient();
  [mine, theirs] = await Promise.all([
    createBookableTenant({ lockDevices: false }),
    createBookableTenant({ lockDevices: false }),
  ]);
});
afterAll(() => admin.end());

const count = async (sql: string, params: unknown[]) => (await admin.query(sql, params)).rows[0].n as number;

describe('room types', () => {
  it('creates, lists with the facility’s currency, unit and rooms, updates and archives, each audited', async () => {
    const { id } = await createRoomType({
      tenantId: mine.tenantId,
      facilityId: mine.facilityId,
      settings: { ...PRICES, name: 'Standard Double' },
      actor: TEST_ACTOR,
    });
    expect(
      await setRoomType({ tenantId: mine.tenantId, roomId: mine.roomIds[0]!, roomTypeId: id, actor: TEST_ACTOR }),
    ).toEqual({
      id: mine.roomIds[0],
      changed: true,
    });
    expect(await listRoomTypes({ tenantId: mine.tenantId })).toEqual([
      expect.objectContaining({
        id,
        facilityId: mine.facilityId,
        name: 'Standard Double',
        weekdayCents: 12000,
        weekendCents: 15000,
        holidayCents: null,
        currency: 'jpy',
        unit: 'night',
        roomIds: [mine.roomIds[0]],
      }),
    ]);
    const updated = await updateRoomType({
      tenantId: mine.tenantId,
      roomTypeId: id,
      settings: { ...PRICES, name: 'Standard Double', weekdayCents: 13000 },
      actor: TEST_ACTOR,
    });
    expect(updated.changed).toEqual(['weekdayCents']);
    await archiveRoomType({ tenantId: mine.tenantId, roomTypeId: id, actor: TEST_ACTOR });
    await archiveRoomType({ tenantId: mine.tenantId, roomTypeId: id, actor: TEST_ACTOR });
    expect(await listRoomTypes({ tenantId: mine.tenantId })).toEqual([]);
    expect((await listRoomTypes({ tenantId: mine.tenantId, archived: true }))[0]?.weekdayCents).toBe(13000);
    const { rows } = await admin.query(
      `select action from audit_events where tenant_id = $1 and subject_id = $2 order by occurred_at, id`,
      [mine.tenantId, id],
    );
    expect(rows.map((r) => r.action)).toEqual(['room_type.created', 'room_type.updated', 'room_type.archived']);
  });

  it('refuses a name the facility has (conflict), another tenant’s facility or type (not_found), writing nothing', async () => {
    const settings = { ...PRICES, name: 'Twin' };
    const { id } = await createRoomType({
      tenantId: mine.tenantId,
      facilityId: mine.facilityId,
      settings,
      actor: TEST_ACTOR,
    });
    await expect(
      createRoomType({ tenantId: mine.tenantId, facilityId: mine.facilityId, settings, actor: TEST_ACTOR }),
    ).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/already has a room type of that name/),
    });
    await expect(
      createRoomType({ tenantId: mine.tenantId, facilityId: theirs.facilityId, settings, actor: TEST_ACTOR }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      updateRoomType({
        tenantId: theirs.tenantId,
        roomTypeId: id,
        settings: { ...settings, name: 'Hijack' },
        actor: TEST_ACTOR,
      }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      archiveRoomType({ tenantId: theirs.tenantId, roomTypeId: id, actor: TEST_ACTOR }),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(
      await count(`select count(*)::int as n from room_types where tenant_id = $1 and name = 'Twin'`, [mine.tenantId]),
    ).toBe(1);
    expect(await count(`select count(*)::int as n from room_types where tenant_id = $1`, [theirs.tenantId])).toBe(0);
    expect(await count(`select count(*)::int as n from audit_events where subject_id = $1`, [id])).toBe(1);
  });

  it('refuses a room type of another facility or tenant for a room (the foreign key), and another tenant’s room', async () => {
    const other = await createFacility({
      tenantId: mine.tenantId,
      name: `Annex ${Date.now()}`,
      timeZone: 'Asia/Tokyo',
    });
    const annexType = await createRoomType({
      tenantId: mine.tenantId,
      facilityId: other.id,
      settings: { ...PRICES, name: 'Annex room' },
      actor: TEST_ACTOR,
    });
    const theirType = await createRoomType({
      tenantId: theirs.tenantId,
      facilityId: theirs.facilityId,
      settings: { ...PRICES, name: 'Theirs' },
      actor: TEST_ACTOR,
    });
    const roomId = mine.roomIds[1]!;
    for (const roomTypeId of [annexType.id, theirType.id])
      await expect(
        setRoomType({ tenantId: mine.tenantId, roomId, roomTypeId, actor: TEST_ACTOR }),
      ).rejects.toMatchObject({
        code: 'invalid_request',
        message: expect.stringMatching(/not one of this room’s facility/),
      });
    await expect(
      setRoomType({ tenantId: theirs.tenantId, roomId, roomTypeId: theirType.id, actor: TEST_ACTOR }),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect((await admin.query(`select room_type_id from rooms where id = $1`, [roomId])).rows).toEqual([
      { room_type_id: null },
    ]);
  });

  it('lets staff read their tenant’s room types but never write them (42501)', async () => {
    const insert = await asRole(
      'app_authenticated',
      mine.tenantId,
      `insert into room_types (tenant_id, facility_id, name, weekday_cents) values ($1, $2, 'Sneaky', 1)`,
      [mine.tenantId, mine.facilityId],
    );
    expect(insert).toEqual({ code: '42501' });
    const update = await asRole('app_authenticated', mine.tenantId, `update room_types set weekday_cents = 1`);
    expect(update).toEqual({ code: '42501' });
    const read = await asRole('app_authenticated', mine.tenantId, `select tenant_id from room_types`);
    expect('rows' in read && read.rows.every((r) => r.tenant_id === mine.tenantId)).toBe(true);
  });

  it('reads the form’s prices in the currency’s major unit, empty weekend and holiday as null', () => {
    const parsed = ZRoomTypeFormSchema.safeParse({
      name: ' Twin ',
      capacity: '3',
      currency: 'JPY',
      weekday: '12000',
      weekend: '',
      holiday: '18000',
    });
    expect(parsed.success && parsed.data.settings).toEqual({
      name: 'Twin',
      description: '',
      capacity: 3,
      weekdayCents: 12000,
      weekendCents: null,
      holidayCents: 18000,
    });
    const eur = ZRoomTypeFormSchema.safeParse({ name: 'A', capacity: '2', currency: 'eur', weekday: '99.5' });
    expect(eur.success && eur.data.settings.weekdayCents).toBe(9950);
    const bad = ZRoomTypeFormSchema.safeParse({ name: '', capacity: '0', currency: 'jpy', weekday: '1.5' });
    expect(bad.success ? [] : bad.error.issues.map((i) => i.path[0]).sort()).toEqual(['capacity', 'name']);
  });
});
