import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { adminClient, bookRoom, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { completeCheckIn } from '../stays/complete-check-in';
import { deskRoom, roomDoors } from './room-doors';

describe('a room’s doors at the desk', () => {
  it('lists the room’s own door first, each with its health and whether the desk can open it remotely', async () => {
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 2 });
    const [roomA, roomB] = roomIds as [string, string];
    const admin = await adminClient();
    // A Seam entrance shared by both rooms, offline behind its gateway.
    await admin.query(
      `with l as (insert into locks (tenant_id, provider, account, device_id, name, online, offline_reason, battery_level)
                  values ($1, 'seam', $3, $2, 'A entrance', false, 'gateway_offline', 40) returning id)
       insert into room_locks (tenant_id, room_id, lock_id, role) select $1, r, id, 'entrance' from l, unnest($4::uuid[]) r`,
      [tenantId, randomUUID(), `acct:${randomBytes(32).toString('hex')}`, [roomA, roomB]],
    );
    // Room B's own door has no gateway: a TTLock (or simulated) lock is opened remotely only through one.
    await admin.query(
      `update locks set online = false, offline_reason = 'no_gateway'
        where tenant_id = $1 and id = (select lock_id from room_locks where tenant_id = $1 and room_id = $2 and role = 'room')`,
      [tenantId, roomB],
    );
    await admin.end();

    const doors = await roomDoors({ tenantId, roomIds: [roomA, roomB] });
    expect(doors.get(roomA)).toEqual([
      expect.objectContaining({
        role: 'room',
        provider: 'simulator',
        canUnlockRemotely: true,
      }),
      {
        roomId: roomA,
        lockId: expect.any(String),
        name: 'A entrance',
        role: 'entrance',
        provider: 'seam',
        online: false,
        offlineReason: 'gateway_offline',
        batteryLevel: 40,
        canUnlockRemotely: true,
      },
    ]);
    expect(doors.get(roomB)!.map((d) => [d.role, d.canUnlockRemotely])).toEqual([
      ['room', false],
      ['entrance', true],
    ]);
    // Another tenant reads none of them.
    const other = await createBookableTenant({ rooms: 1 });
    expect((await roomDoors({ tenantId: other.tenantId, roomIds: [roomA] })).size).toBe(0);
  });

  it('reads the room, its doors and its stays now and within a day; null for another tenant’s room', async () => {
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 1 });
    const roomId = roomIds[0]!;
    const now = await bookRoom({ tenantId, roomId, startsInHours: -3, hours: 20, guestName: 'Aiko Now' });
    await completeCheckIn({ tenantId, reservationId: now.reservationId, actor: TEST_ACTOR });
    const next = await bookRoom({ tenantId, roomId, startsInHours: 18, guestName: 'Ben Next' });
    await bookRoom({ tenantId, roomId, startsInHours: 60, guestName: 'Chie Later' });

    const view = await deskRoom({ tenantId, roomId });
    expect(view).toMatchObject({
      room: { id: roomId, label: '101', facilityName: 'Main', timeZone: 'Asia/Tokyo', archived: false },
      doors: [{ role: 'room' }],
    });
    expect(view!.stays).toEqual([
      expect.objectContaining({ id: now.reservationId, guestName: 'Aiko Now', status: 'checked_in', arrivedAt: null }),
      expect.objectContaining({ id: next.reservationId, guestName: 'Ben Next', status: 'confirmed' }),
    ]);
    const other = await createBookableTenant({ rooms: 1 });
    expect(await deskRoom({ tenantId: other.tenantId, roomId })).toBeNull();
  });
});
