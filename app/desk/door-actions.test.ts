import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { addRoomLock, setLockProvider, syncLocks } from '@/lib/locks/locks';
import { registerLockProvider } from '@/lib/locks/tenant-provider';
import { setProviderSecret } from '@/lib/secrets/provider-secrets';
import { createStaffUser } from '@/lib/staff/create-staff-user';
import { fakeDevice, fakeLockProvider } from '@/tooling/testing/fake-lock-provider';
import { adminClient, createBookableTenant, TEST_ACTOR } from '@/tooling/testing/fixtures';

// "Open door" at the desk, as in app/manage/locks/actions.test.ts: only the Next.js request is replaced; the action,
// the domain, the database and the provider port are real, the provider behind the port the in-memory fake.
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

const { remoteUnlockAction } = await import('@/app/desk/door-actions');

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

let admin: pg.Client;
let fake: ReturnType<typeof fakeLockProvider>;
let tenantId: string;
/** One door per test that opens it, so the per-lock limit (3 a minute) belongs to that test alone. */
const doors: string[] = [];
let desk: { id: string };

async function member(role: 'manager' | 'front_desk', name: string) {
  const email = `${role}-${randomBytes(3).toString('hex')}@example.com`;
  return createStaffUser({ tenantId, email, password: 'pw', role, name });
}

const unlocks = async () =>
  (
    await admin.query(`select lock_id, user_id, reason, status, error from remote_unlocks where tenant_id = $1`, [
      tenantId,
    ])
  ).rows;

beforeAll(async () => {
  admin = await adminClient();
  fake = fakeLockProvider({ devices: ['d-1', 'd-2', 'd-3', 'd-4', 'd-5'].map((id) => fakeDevice(id)) });
  registerLockProvider('seam', () => fake.provider);
  let roomIds: string[];
  ({ tenantId, roomIds } = await createBookableTenant({ rooms: 5, lockDevices: false }));
  await setLockProvider({ tenantId, provider: 'seam', actor: TEST_ACTOR });
  await setProviderSecret({ tenantId, provider: 'seam', value: `seam_test_key_${tenantId}`, actor: TEST_ACTOR });
  const { locks } = await syncLocks({ tenantId, actor: TEST_ACTOR });
  for (const [i, roomId] of roomIds.entries()) {
    const lockId = locks.find((l) => l.deviceId === `d-${i + 1}`)!.id;
    await addRoomLock({ tenantId, roomId, lockId, actor: TEST_ACTOR });
    doors.push(lockId);
  }
  desk = await member('front_desk', 'Desk Daichi');
});
afterAll(async () => {
  await admin.end();
});
beforeEach(() => {
  request.userId = desk.id;
  fake.calls.length = 0;
  fake.state.failing.clear();
  fake.state.unlockAs = 'done';
});

describe('Open door at the desk', () => {
  it('asks for a reason first, asking the provider nothing without one', async () => {
    const answer = await remoteUnlockAction(null, form({ lockId: doors[0]!, reason: '   ' }));
    expect(answer).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', field: 'reason', message: 'Enter a reason.' },
    });
    expect(fake.calls).toEqual([]);
  });

  it('opens the door for the front desk, recording who and why, and says when', async () => {
    const answer = await remoteUnlockAction(null, form({ lockId: doors[0]!, reason: 'Guest locked out' }));
    expect(answer).toMatchObject({ ok: true, data: { status: 'done', problem: null, id: expect.any(String) } });
    expect(fake.calls).toEqual([{ method: 'unlockDoor', deviceId: 'd-1' }]);
    expect(await unlocks()).toContainEqual({
      lock_id: doors[0],
      user_id: desk.id,
      reason: 'Guest locked out',
      status: 'done',
      error: null,
    });
  });

  it('says the lock has not confirmed yet when its provider has not', async () => {
    fake.state.unlockAs = 'pending';
    const answer = await remoteUnlockAction(null, form({ lockId: doors[1]!, reason: 'Delivery at the door' }));
    expect(answer).toMatchObject({ ok: true, data: { status: 'pending' } });
  });

  it('gives the provider’s words when the lock did not open', async () => {
    fake.state.failing.set('d-3', { code: 'device_offline', retryable: false });
    const answer = await remoteUnlockAction(null, form({ lockId: doors[2]!, reason: 'Guest locked out' }));
    expect(answer).toMatchObject({ ok: true, data: { status: 'failed', problem: 'device_offline' } });
  });

  it('refuses a lock that cannot be opened remotely, another tenant’s, and too many openings of one door', async () => {
    // A device the tenant no longer holds reaches nothing.
    await admin.query(`update locks set device_id = 'released:d-5' where tenant_id = $1 and id = $2`, [
      tenantId,
      doors[4],
    ]);
    expect(await remoteUnlockAction(null, form({ lockId: doors[4]!, reason: 'Guest locked out' }))).toMatchObject({
      ok: false,
      error: {
        code: 'not_supported',
        message: 'This lock cannot be opened remotely: its provider does not offer it. Someone has to open it on site.',
      },
    });
    const other = await createBookableTenant({ rooms: 1, name: 'Other' });
    const theirs = (await admin.query(`select id from locks where tenant_id = $1`, [other.tenantId])).rows[0].id;
    expect(await remoteUnlockAction(null, form({ lockId: theirs, reason: 'Guest locked out' }))).toMatchObject({
      ok: false,
      error: { code: 'not_found', message: 'This lock no longer exists.' },
    });
    expect(fake.calls).toEqual([]);

    // The per-lock limit (3 a minute): the fourth is refused in words, and the provider is not asked again.
    for (let i = 0; i < 3; i++)
      expect(await remoteUnlockAction(null, form({ lockId: doors[3]!, reason: 'Cleaning' }))).toMatchObject({
        ok: true,
      });
    fake.calls.length = 0;
    expect(await remoteUnlockAction(null, form({ lockId: doors[3]!, reason: 'Cleaning' }))).toMatchObject({
      ok: false,
      error: {
        code: 'rate_limited',
        message: 'This door (or you) just opened doors remotely several times. Wait a minute, then try again.',
      },
    });
    expect(fake.calls).toEqual([]);
  });
});
