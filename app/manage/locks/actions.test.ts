import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { programKeyOnLock } from '@/lib/locks/sync-provider';
import { addRoomLock, setLockProvider, syncLocks } from '@/lib/locks/locks';
import { registerLockProvider } from '@/lib/locks/tenant-provider';
import { setProviderSecret } from '@/lib/secrets/provider-secrets';
import { createStaffUser } from '@/lib/staff/create-staff-user';
import { fakeDevice, fakeLockProvider } from '@/tooling/testing/fake-lock-provider';
import { adminClient, bookRoom, createBookableTenant, TEST_ACTOR } from '@/tooling/testing/fixtures';

// As in app/_server/action.test.ts: only the Next.js request is replaced (session, cookies,
// headers, page cache). The actions, the domain, the database — and the provider port — are real;
// the provider behind the port is the in-memory fake.
const request = vi.hoisted(() => ({ userId: null as string | null, revalidated: [] as string[] }));
vi.mock('server-only', () => ({}));
vi.mock('next-auth', () => ({
  getServerSession: async () => (request.userId ? { userId: request.userId } : null),
}));
vi.mock('next/headers', () => ({
  cookies: async () => ({ get: () => undefined, set: () => {} }),
  headers: async () => new Headers({ 'accept-language': 'en' }),
}));
vi.mock('next/cache', () => ({
  revalidatePath: (path: string) => void request.revalidated.push(path),
}));

const { addRoomLockAction, importLocksAction, resyncLockAction } = await import('@/app/manage/locks/actions');

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

let admin: pg.Client;
let fake: ReturnType<typeof fakeLockProvider>;
let tenantId: string;
let roomIds: string[];
let lockId: string;
let keyId: string;
let manager: { id: string };
let desk: { id: string };

function staffMember(role: 'manager' | 'front_desk', name: string) {
  const email = `${role}-${randomBytes(3).toString('hex')}@example.com`;
  return createStaffUser({ tenantId, email, password: 'pw', role, name });
}

/** What the actions could have written for the tenant: audit rows, doors, the lock's last check. */
async function footprint(id = tenantId) {
  const { rows } = await admin.query(
    `select (select count(*)::int from audit_events where tenant_id = $1) as audits,
            (select count(*)::int from room_locks where tenant_id = $1) as doors,
            (select count(*)::int from locks where tenant_id = $1) as locks,
            (select count(*)::int from locks where tenant_id = $1 and reconciled_at is not null) as checked`,
    [id],
  );
  return rows[0] as { audits: number; doors: number; locks: number; checked: number };
}

beforeAll(async () => {
  admin = await adminClient();
  // A tenant on the fake "Seam": one lock that is room 101's door, and a stay whose code is set on it.
  fake = fakeLockProvider({ devices: [fakeDevice('door-1')] });
  registerLockProvider('seam', () => fake.provider);
  ({ tenantId, roomIds } = await createBookableTenant({ rooms: 2, lockDevices: false }));
  await setLockProvider({ tenantId, provider: 'seam', actor: TEST_ACTOR });
  await setProviderSecret({ tenantId, provider: 'seam', value: `seam_test_key_${tenantId}`, actor: TEST_ACTOR });
  lockId = (await syncLocks({ tenantId, actor: TEST_ACTOR })).locks[0]!.id;
  await addRoomLock({ tenantId, roomId: roomIds[0]!, lockId, actor: TEST_ACTOR });
  const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]! });
  keyId = (await admin.query(`select id from access_keys where reservation_id = $1`, [reservationId])).rows[0].id;
  await programKeyOnLock({ tenantId, keyId, attempt: 1, maxAttempts: 8 });
  manager = await staffMember('manager', 'Manager Mika');
  desk = await staffMember('front_desk', 'Desk Daichi');
});
afterAll(async () => {
  await admin.end();
});
beforeEach(() => {
  request.userId = null;
  request.revalidated = [];
  fake.calls.length = 0;
  fake.state.failing.clear();
});

describe('the Locks page’s actions', () => {
  it('refuse a front-desk user with the forbidden message, asking the provider nothing and writing nothing', async () => {
    const before = await footprint();
    request.userId = desk.id;
    const forbidden = {
      ok: false,
      error: {
        code: 'forbidden',
        message: 'Your role in the current tenant does not allow this. Ask a manager if you need access.',
      },
    };

    expect(await resyncLockAction(null, form({ lockId }))).toMatchObject(forbidden);
    expect(await importLocksAction(null, form({}))).toMatchObject(forbidden);
    expect(await addRoomLockAction(null, form({ lockId, roomId: roomIds[1]!, role: 'entrance' }))).toMatchObject(
      forbidden,
    );

    expect(fake.calls).toEqual([]);
    expect(await footprint()).toEqual(before);
  });

  it('treat another tenant’s lock as not found and leave it alone', async () => {
    const other = await createBookableTenant({ rooms: 1, name: 'Other' });
    const { rows } = await admin.query(`select id from locks where tenant_id = $1`, [other.tenantId]);
    const otherLockId: string = rows[0].id;
    const [mine, theirs] = [await footprint(), await footprint(other.tenantId)];
    request.userId = manager.id;

    const resync = await resyncLockAction(null, form({ lockId: otherLockId }));
    expect(resync).toMatchObject({ ok: false, error: { code: 'not_found', message: 'This lock no longer exists.' } });
    const door = await addRoomLockAction(null, form({ lockId: otherLockId, roomId: roomIds[1]!, role: 'room' }));
    expect(door).toMatchObject({
      ok: false,
      error: { code: 'not_found', message: 'That room or lock no longer exists.' },
    });
    // And the other way round: another tenant's room with this tenant's lock.
    const room = await addRoomLockAction(null, form({ lockId, roomId: other.roomIds[0]!, role: 'room' }));
    expect(room).toMatchObject({ ok: false, error: { code: 'not_found' } });

    expect(fake.calls).toEqual([]);
    expect(await footprint()).toEqual(mine);
    expect(await footprint(other.tenantId)).toEqual(theirs);
  });

  it('re-sync says what it found — a vanished code sent again, a code we did not make — audited as the manager', async () => {
    const codeId = (await admin.query(`select code_id from key_lock_codes where key_id = $1`, [keyId])).rows[0].code_id;
    fake.settle(codeId, 'absent');
    fake.addForeignCode('door-1', '999999');
    request.userId = manager.id;

    const answer = await resyncLockAction(null, form({ lockId }));

    expect(answer).toEqual({
      attempt: 1,
      ok: true,
      data: { lockId, sentAgain: 1, removing: 0, foreign: 1, unreached: null },
    });
    const audit = await admin.query(
      `select actor_type, actor_id, actor_label, metadata from audit_events
        where tenant_id = $1 and action = 'lock.resynced' and subject_id = $2`,
      [tenantId, lockId],
    );
    expect(audit.rows).toEqual([
      {
        actor_type: 'user',
        actor_id: manager.id,
        actor_label: 'Manager Mika',
        metadata: expect.objectContaining({ missingKeyIds: [keyId], foreignCodes: 1 }),
      },
    ]);
    expect(request.revalidated).toEqual(['/manage/locks']);
    // The page's answer carries counts only: no PIN, no code id.
    expect(JSON.stringify(answer)).not.toMatch(/999999|foreign-/);
  });

  it('re-sync answers a provider that cannot be reached as unavailable, with the provider’s code', async () => {
    fake.state.failing.set('door-1', { code: 'timeout', retryable: true });
    const before = await footprint();
    request.userId = manager.id;

    const answer = await resyncLockAction(null, form({ lockId }));

    expect(answer).toMatchObject({
      ok: false,
      error: {
        code: 'unavailable',
        providerCode: 'timeout',
        message: 'The lock provider could not be reached; nothing was changed.',
      },
    });
    // Only the failed check is recorded on the lock (the page says why it last failed); nothing audited.
    expect(await footprint()).toEqual(before);
    const lock = await admin.query(`select reconcile_error from locks where id = $1`, [lockId]);
    expect(lock.rows).toEqual([{ reconcile_error: 'timeout' }]);
  });

  it('imports new devices and adds a lock as a room’s entrance', async () => {
    fake.state.devices = [fakeDevice('door-1'), fakeDevice('door-2', { name: 'Main entrance' })];
    request.userId = manager.id;

    const imported = await importLocksAction(null, form({}));
    expect(imported).toMatchObject({ ok: true, data: { imported: 1, total: 2 } });
    const entrance = (
      await admin.query(`select id from locks where tenant_id = $1 and device_id = 'door-2'`, [tenantId])
    ).rows[0].id;

    const added = await addRoomLockAction(null, form({ lockId: entrance, roomId: roomIds[0]!, role: 'entrance' }));
    expect(added).toMatchObject({ ok: true, data: { lockId: entrance, roomId: roomIds[0] } });
    const doors = await admin.query(`select role::text from room_locks where lock_id = $1`, [entrance]);
    expect(doors.rows).toEqual([{ role: 'entrance' }]);

    const bad = await addRoomLockAction(null, form({ lockId: entrance, roomId: roomIds[1]!, role: 'roof' }));
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });
});
