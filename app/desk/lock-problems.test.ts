import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { programKeyOnLock } from '@/lib/locks/sync-provider';
import { actionsFor, doorProblem } from '@/lib/locks/lock-problems';
import { addRoomLock, setLockProvider, syncLocks } from '@/lib/locks/locks';
import { checkTenantLocks } from '@/lib/locks/reconcile';
import { registerLockProvider } from '@/lib/locks/tenant-provider';
import { setProviderSecret } from '@/lib/secrets/provider-secrets';
import { createStaffUser } from '@/lib/staff/create-staff-user';
import { fakeDevice, fakeLockProvider } from '@/tooling/testing/fake-lock-provider';
import { adminClient, bookRoom, createBookableTenant, TEST_ACTOR } from '@/tooling/testing/fixtures';

// The desk sees a lock problem in words with what it can do, and is warned before checking in a
// guest whose PIN cannot reach the door (issue 28, item 11 f). As in app/_server/action.test.ts,
// only the Next.js request is replaced; the actions, the domain and the database are real, the lock
// provider behind the port the in-memory fake.
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

const { completeCheckInAction, issueBackupCodeAction } = await import('@/app/desk/actions');

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

let admin: pg.Client;
let fake: ReturnType<typeof fakeLockProvider>;
let tenantId: string;
let roomIds: string[];

beforeAll(async () => {
  admin = await adminClient();
  // Two rooms, each with its own lock on the fake "Seam"; the second lock keeps a backup pool.
  fake = fakeLockProvider({ devices: [fakeDevice('door-1'), fakeDevice('door-2', { supportsBackupCodes: true })] });
  registerLockProvider('seam', () => fake.provider);
  ({ tenantId, roomIds } = await createBookableTenant({ rooms: 2, lockDevices: false }));
  await setLockProvider({ tenantId, provider: 'seam', actor: TEST_ACTOR });
  // The tenant's own Seam account: a device belongs to one tenant, and other files use these device ids too.
  await setProviderSecret({ tenantId, provider: 'seam', value: `seam_test_key_${tenantId}`, actor: TEST_ACTOR });
  const { locks } = await syncLocks({ tenantId, actor: TEST_ACTOR });
  for (const [i, deviceId] of ['door-1', 'door-2'].entries())
    await addRoomLock({
      tenantId,
      roomId: roomIds[i]!,
      lockId: locks.find((l) => l.deviceId === deviceId)!.id,
      actor: TEST_ACTOR,
    });
  const email = `desk-${randomBytes(3).toString('hex')}@example.com`;
  request.userId = (
    await createStaffUser({
      tenantId,
      email,
      password: 'a long enough password',
      role: 'front_desk',
      name: 'Desk Daichi',
    })
  ).id;
});
afterAll(async () => {
  await admin.end();
});

const checkIns = async (reservationId: string) =>
  (await admin.query(`select count(*)::int as n from check_ins where reservation_id = $1`, [reservationId])).rows[0].n;

describe('checking in a guest whose PIN cannot reach the door', () => {
  it('is refused until the desk confirms it has seen the warning; a healthy door needs no confirmation', async () => {
    const healthy = await bookRoom({ tenantId, roomId: roomIds[1]!, startsInHours: 0.5 });
    expect(await completeCheckInAction(null, form({ reservationId: healthy.reservationId }))).toMatchObject({
      ok: true,
    });

    // Room 101's lock: its gateway went offline (the status read says so).
    fake.state.devices = [
      fakeDevice('door-1', { online: false, offlineReason: 'gateway_offline' }),
      fakeDevice('door-2', { supportsBackupCodes: true }),
    ];
    await checkTenantLocks(tenantId);
    const stay = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: 0.5 });
    const refused = await completeCheckInAction(null, form({ reservationId: stay.reservationId }));
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_request', field: 'lockProblemConfirmed' } });
    expect(refused && !refused.ok && refused.error.message).toMatch(/gateway/i);
    expect(await checkIns(stay.reservationId)).toBe(0);

    const confirmed = await completeCheckInAction(
      null,
      form({ reservationId: stay.reservationId, lockProblemConfirmed: '1' }),
    );
    expect(confirmed).toMatchObject({ ok: true, data: { reservationId: stay.reservationId } });
    expect(await checkIns(stay.reservationId)).toBe(1);
    fake.state.devices = [fakeDevice('door-1'), fakeDevice('door-2', { supportsBackupCodes: true })];
    await checkTenantLocks(tenantId);
  });
});

describe('a lock problem on the desk', () => {
  it('reads in words with what the desk can do', () => {
    const offline = { online: false, offlineReason: 'gateway_offline' };
    const up = { online: true, offlineReason: null };
    expect(doorProblem({ state: 'failed', error: 'device_offline' }, offline)).toBe('gateway_offline');
    expect(doorProblem({ state: 'pending', error: null }, offline)).toBe('gateway_offline');
    expect(doorProblem({ state: 'pending', error: null }, up)).toBeNull();
    expect(doorProblem({ state: 'failed', error: 'quota_exceeded' }, up)).toBe('quota');
    expect(doorProblem({ state: 'failed', error: 'clock_skew' }, up)).toBe('clock');
    expect(doorProblem({ state: 'failed', error: 'duplicate_code_on_device' }, up)).toBe('duplicate');
    expect(doorProblem({ state: 'set', error: null, rewindowError: 'gateway_offline' }, up)).toBe('gateway_offline');
    expect(actionsFor('gateway_offline', { backupPossible: true })).toEqual(['backup', 'call_manager']);
    expect(actionsFor('duplicate', { backupPossible: false })).toEqual(['reissue']);
    expect(actionsFor('quota', { backupPossible: false })).toEqual(['call_manager']);
  });

  it('has a backup code stand in from the desk where the lock keeps a pool, audited as the staff member', async () => {
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[1]!, startsInHours: 30 });
    const keyId: string = (await admin.query(`select id from access_keys where reservation_id = $1`, [reservationId]))
      .rows[0].id;
    fake.state.acceptAs = 'failed';
    await programKeyOnLock({ tenantId, keyId, attempt: 8, maxAttempts: 8 });
    fake.state.acceptAs = 'set';
    expect((await admin.query(`select state::text from key_lock_codes where key_id = $1`, [keyId])).rows).toEqual([
      { state: 'failed' },
    ]);

    const answer = await issueBackupCodeAction(null, form({ keyId }));
    expect(answer).toMatchObject({ ok: true, data: { backupKeyId: expect.any(String) } });
    const { rows } = await admin.query(
      `select k.kind::text, k.backup_for, a.actor_type::text, a.actor_label from access_keys k
         join audit_events a on a.subject_id = k.id and a.action = 'key.backup_issued'
        where k.reservation_id = $1 and k.kind = 'backup'`,
      [reservationId],
    );
    expect(rows).toEqual([{ kind: 'backup', backup_for: keyId, actor_type: 'user', actor_label: 'Desk Daichi' }]);
    // A second press: one stands in already.
    expect(await issueBackupCodeAction(null, form({ keyId }))).toMatchObject({
      ok: false,
      error: { code: 'conflict' },
    });
  });
});
