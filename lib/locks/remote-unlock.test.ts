import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { withSimulatorProvider } from '../../tooling/testing/lock-simulator';
import { startSeamFake } from '../../tooling/testing/seam-fake';
import { seamEvent, sendSeam } from '../../tooling/testing/seam-webhooks';
import { newSvixSecret } from '../../tooling/testing/svix';
import { setProviderSecret } from '../secrets/provider-secrets';
import { processWebhookEvent } from '../webhooks/process-event';
import { confirmRemoteUnlock } from './confirm-remote-unlock';
import { setInstallLockProviderForTests } from './install-provider';
import { syncLocks } from './locks';
import { pollLockRecords } from './poll-lock-records';
import { remoteUnlock, ZRemoteUnlockBodySchema } from './remote-unlock';
import './seam';

// Remote unlock (issue 33, item 2) against Seam's own fake (which answers locks/unlock_door with a pending action
// attempt) and against the simulator (TTLock's /v3/lock/unlock through the gateway, answered once the lock opened): the
// request is written before the provider is asked and audited door.unlocked_remotely with the provider's answer, a
// pending one converges (the door's entry, or its action read later), and the entry the lock then reports names the
// person who asked.
const env = withSimulatorProvider();
let admin: pg.Client;
let seam: Awaited<ReturnType<typeof startSeamFake>>;
let seamTenant: string;
let secret: string;
let seamLock: { id: string; deviceId: string };

/** A person of the desk (a user row), as the audit actor of their requests. */
async function person(label = 'Desk Person') {
  const id = (
    await admin.query<{ id: string }>(`insert into users (email, name) values ($1, $2) returning id`, [
      `desk-${randomUUID()}@example.com`,
      label,
    ])
  ).rows[0]!.id;
  return { type: 'user' as const, id, label };
}

const unlockRow = async (tenantId: string, id: string) =>
  (
    await admin.query(
      `select user_id, actor_type, actor_id, actor_label, reason, status, action_id, error from remote_unlocks
        where tenant_id = $1 and id = $2`,
      [tenantId, id],
    )
  ).rows[0];

const audits = async (tenantId: string, action: string) =>
  (
    await admin.query(
      `select actor_type, actor_id, actor_label, subject_id, room_id, reason, metadata from audit_events
        where tenant_id = $1 and action = $2 order by occurred_at, id`,
      [tenantId, action],
    )
  ).rows;

/** A tenant whose one room's door is a simulator (TTLock) lock held for a day. */
async function simulatorDoor() {
  const tenant = await createBookableTenant({ rooms: 1, name: 'Gateway' });
  const { rows } = await admin.query<{ id: string; device_id: string }>(
    `update locks set created_at = now() - interval '1 day' where tenant_id = $1 returning id, device_id`,
    [tenant.tenantId],
  );
  return { ...tenant, lockId: rows[0]!.id, deviceId: rows[0]!.device_id };
}

beforeAll(async () => {
  admin = await adminClient();
  seam = await startSeamFake('remote');
  ({ tenantId: seamTenant } = await createBookableTenant({ rooms: 1, lockDevices: false, name: 'Remote' }));
  secret = newSvixSecret();
  await seam.useFor(seamTenant);
  await setProviderSecret({ tenantId: seamTenant, provider: 'seam_webhook', value: secret, actor: TEST_ACTOR });
  const { locks } = await syncLocks({ tenantId: seamTenant, actor: TEST_ACTOR });
  seamLock = locks.find((l) => l.deviceId === 'august_device_1')!;
});
afterAll(async () => {
  await seam.stop();
  await admin.end();
});

describe('remote unlock through Seam', () => {
  it('is pending until its action attempt says done, audited with the reason, and its entry names the person', async () => {
    const who = await person();
    const unlocked = await remoteUnlock({
      tenantId: seamTenant,
      lockId: seamLock.id,
      reason: 'Guest locked out',
      actor: who,
    });
    expect(unlocked).toEqual({ id: expect.any(String), lockId: seamLock.id, status: 'pending' });
    const row = await unlockRow(seamTenant, unlocked.id);
    expect(row).toMatchObject({
      user_id: who.id,
      actor_type: 'user',
      actor_id: who.id,
      reason: 'Guest locked out',
      status: 'pending',
      action_id: expect.any(String),
      error: null,
    });
    expect(await audits(seamTenant, 'door.unlocked_remotely')).toEqual([
      {
        actor_type: 'user',
        actor_id: who.id,
        actor_label: 'Desk Person',
        subject_id: seamLock.id,
        room_id: null,
        reason: 'Guest locked out',
        metadata: {
          lock: expect.any(String),
          provider: 'seam',
          remoteUnlockId: unlocked.id,
          status: 'pending',
          error: null,
        },
      },
    ]);
    // Its confirmation is queued with it: the worker reads Seam's action attempt a few seconds later.
    const queued = await admin.query(
      `select j.run_at > now() as later, j.max_attempts from graphile_worker._private_jobs j
         join graphile_worker._private_tasks t on t.id = j.task_id and t.identifier = 'confirm_remote_unlock'
        where j.payload->>'remoteUnlockId' = $1`,
      [unlocked.id],
    );
    expect(queued.rows).toEqual([{ later: true, max_attempts: 8 }]);
    // The worker reads Seam's action attempt: success, done.
    expect(
      await confirmRemoteUnlock({ tenantId: seamTenant, remoteUnlockId: unlocked.id, attempt: 1, maxAttempts: 8 }),
    ).toBe('done');
    expect((await unlockRow(seamTenant, unlocked.id)).status).toBe('done');
    expect(
      await confirmRemoteUnlock({ tenantId: seamTenant, remoteUnlockId: unlocked.id, attempt: 2, maxAttempts: 8 }),
    ).toBe('settled');

    // Seam reports the opening with the action's id: the entry names who asked, its door.opened row too.
    await sendSeam(
      seamTenant,
      seamEvent('lock.unlocked', { device_id: seamLock.deviceId, action_attempt_id: row.action_id, method: 'seamapi' }),
      { secret },
    );
    const received = await admin.query(`select id from webhook_events where tenant_id = $1 and status = 'received'`, [
      seamTenant,
    ]);
    for (const event of received.rows) await processWebhookEvent({ eventId: event.id, attempt: 1, maxAttempts: 10 });
    const entries = await admin.query(
      `select method, user_id, key_id, remote_unlock_id from door_entries where tenant_id = $1`,
      [seamTenant],
    );
    expect(entries.rows).toEqual([{ method: 'app', user_id: who.id, key_id: null, remote_unlock_id: unlocked.id }]);
    expect(await audits(seamTenant, 'door.opened')).toMatchObject([
      { actor_type: 'user', actor_id: who.id, actor_label: 'Desk Person', metadata: { remoteUnlockId: unlocked.id } },
    ]);
  });

  it('becomes done when the door’s entry arrives before the action is read', async () => {
    const who = await person();
    const unlocked = await remoteUnlock({ tenantId: seamTenant, lockId: seamLock.id, reason: 'Delivery', actor: who });
    const { action_id } = await unlockRow(seamTenant, unlocked.id);
    await sendSeam(
      seamTenant,
      seamEvent('lock.unlocked', { device_id: seamLock.deviceId, action_attempt_id: action_id, method: 'seamapi' }),
      { secret },
    );
    const received = await admin.query(`select id from webhook_events where tenant_id = $1 and status = 'received'`, [
      seamTenant,
    ]);
    for (const event of received.rows) await processWebhookEvent({ eventId: event.id, attempt: 1, maxAttempts: 10 });
    expect((await unlockRow(seamTenant, unlocked.id)).status).toBe('done');
    // The job finds nothing left to do.
    expect(
      await confirmRemoteUnlock({ tenantId: seamTenant, remoteUnlockId: unlocked.id, attempt: 1, maxAttempts: 8 }),
    ).toBe('settled');
  });

  it('needs a reason, refuses another tenant’s lock, and is rate limited per lock, also when asked at once', async () => {
    const who = await person();
    expect(ZRemoteUnlockBodySchema.safeParse({ reason: '  ' }).success).toBe(false);
    expect(ZRemoteUnlockBodySchema.safeParse({}).success).toBe(false);
    const count = async () =>
      (await admin.query(`select count(*)::int as n from remote_unlocks where tenant_id = $1`, [seamTenant])).rows[0].n;
    await expect(
      remoteUnlock({ tenantId: seamTenant, lockId: seamLock.id, reason: ' ', actor: who }),
    ).rejects.toMatchObject({
      code: 'invalid_request',
    });
    const other = await createBookableTenant({ rooms: 1 });
    const theirs = (
      await admin.query<{ id: string }>(`select id from locks where tenant_id = $1 limit 1`, [other.tenantId])
    ).rows[0]!.id;
    await expect(
      remoteUnlock({ tenantId: seamTenant, lockId: theirs, reason: 'probe', actor: who }),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
    // A new minute's budget for this lock: three a minute, the fourth refused before the provider is asked.
    await admin.query(`delete from rate_limits where bucket like 'remote-unlock:lock:' || $1 || '%'`, [seamLock.id]);
    const before = await count();
    const results = await Promise.allSettled(
      [1, 2, 3, 4].map(() => remoteUnlock({ tenantId: seamTenant, lockId: seamLock.id, reason: 'Again', actor: who })),
    );
    const refused = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.code);
    expect(refused).toEqual(['rate_limited']);
    expect(await count()).toBe(before + 3);
  });
});

describe('remote unlock through the gateway (TTLock, the simulator)', () => {
  it('is done when TTLock answers, and the gateway’s record names the person who asked', async () => {
    const door = await simulatorDoor();
    const who = await person('Night Desk');
    const unlocked = await remoteUnlock({
      tenantId: door.tenantId,
      lockId: door.lockId,
      reason: 'Lost phone',
      actor: who,
    });
    expect(unlocked).toEqual({ id: expect.any(String), lockId: door.lockId, status: 'done' });
    expect(await unlockRow(door.tenantId, unlocked.id)).toMatchObject({ status: 'done', action_id: null, error: null });
    expect(await audits(door.tenantId, 'door.unlocked_remotely')).toMatchObject([
      {
        actor_id: who.id,
        room_id: door.roomIds[0],
        reason: 'Lost phone',
        metadata: { provider: 'simulator', status: 'done', error: null, remoteUnlockId: unlocked.id },
      },
    ]);
    // The lock recorded a gateway unlock (type 12); the worker reads it: the entry names the person.
    await pollLockRecords({ tenantId: door.tenantId, lockId: door.lockId });
    const entries = await admin.query(
      `select kind, method, user_id, remote_unlock_id from door_entries where tenant_id = $1`,
      [door.tenantId],
    );
    expect(entries.rows).toEqual([{ kind: 'unlocked', method: 'app', user_id: who.id, remote_unlock_id: unlocked.id }]);
    expect(await audits(door.tenantId, 'door.opened')).toMatchObject([
      { actor_type: 'user', actor_id: who.id, actor_label: 'Night Desk', room_id: null },
    ]);
  });

  it('is 202 failed with TTLock’s code when the gateway or lock is offline, audited with it', async () => {
    const door = await simulatorDoor();
    const who = await person();
    await env.sim.control('/_control/faults', { locks: { [door.deviceId]: { offline: 'lock' } } });
    const unlocked = await remoteUnlock({
      tenantId: door.tenantId,
      lockId: door.lockId,
      reason: 'Cleaning',
      actor: who,
    });
    expect(unlocked.status).toBe('failed');
    expect(await unlockRow(door.tenantId, unlocked.id)).toMatchObject({ status: 'failed', error: 'device_offline' });
    expect(await audits(door.tenantId, 'door.unlocked_remotely')).toMatchObject([
      { metadata: { status: 'failed', error: 'device_offline' } },
    ]);
    // The door did not open: no record, no entry, nothing to confirm.
    await env.sim.control('/_control/faults', {});
    await pollLockRecords({ tenantId: door.tenantId, lockId: door.lockId });
    expect((await admin.query(`select 1 from door_entries where tenant_id = $1`, [door.tenantId])).rows).toEqual([]);
  });

  it('is 409 not_supported for a lock without a gateway: before anything is written when known, else recorded', async () => {
    const door = await simulatorDoor();
    const who = await person();
    const written = async () =>
      (await admin.query(`select status, error from remote_unlocks where tenant_id = $1`, [door.tenantId])).rows;
    // TTLock says so (-2012): the attempt is kept, failed, and audited; the answer is 409.
    await env.sim.control('/_control/faults', { locks: { [door.deviceId]: { hasGateway: false } } });
    await expect(
      remoteUnlock({ tenantId: door.tenantId, lockId: door.lockId, reason: 'Try', actor: who }),
    ).rejects.toMatchObject({ code: 'not_supported' });
    expect(await written()).toEqual([{ status: 'failed', error: 'not_supported' }]);
    // Once the lock's state says it (a sync or status read: no_gateway), nothing is even asked.
    await admin.query(`update locks set online = false, offline_reason = 'no_gateway' where id = $1`, [door.lockId]);
    const calls = (await env.sim.calls()).length;
    await expect(
      remoteUnlock({ tenantId: door.tenantId, lockId: door.lockId, reason: 'Try again', actor: who }),
    ).rejects.toMatchObject({ code: 'not_supported' });
    expect((await env.sim.calls()).length).toBe(calls);
    expect(await written()).toHaveLength(1);
    // A model that cannot (-4043) is not_supported too.
    await admin.query(`update locks set online = true, offline_reason = null where id = $1`, [door.lockId]);
    await env.sim.control('/_control/faults', { locks: { [door.deviceId]: { remoteUnlock: false } } });
    await expect(
      remoteUnlock({ tenantId: door.tenantId, lockId: door.lockId, reason: 'Model', actor: who }),
    ).rejects.toMatchObject({ code: 'not_supported' });
  });

  it('waits for the door’s record when TTLock’s answer is lost, then is done; unconfirmed when none comes', async () => {
    const door = await simulatorDoor();
    const who = await person();
    // The gateway opens the door but the answer comes after the client gave up (0.5 s): pending, not failed.
    setInstallLockProviderForTests(env.sim.provider({ timeoutMs: 500 }));
    await env.sim.control('/_control/faults', { next: { count: 1, endpoint: '/v3/lock/unlock', latencyMs: 900 } });
    const slow = await remoteUnlock({ tenantId: door.tenantId, lockId: door.lockId, reason: 'Slow', actor: who });
    expect(slow.status).toBe('pending');
    await new Promise((resolve) => setTimeout(resolve, 700));
    await pollLockRecords({ tenantId: door.tenantId, lockId: door.lockId });
    expect(await unlockRow(door.tenantId, slow.id)).toMatchObject({ status: 'done' });
    const linked = await admin.query(
      `select user_id from door_entries where tenant_id = $1 and remote_unlock_id = $2`,
      [door.tenantId, slow.id],
    );
    expect(linked.rows).toEqual([{ user_id: who.id }]);

    // A 502 from TTLock: the unlock may or may not have happened; nothing arrives, so it ends unconfirmed.
    await env.sim.control('/_control/faults', { next: { count: 1, endpoint: '/v3/lock/unlock', httpStatus: 502 } });
    const lost = await remoteUnlock({ tenantId: door.tenantId, lockId: door.lockId, reason: 'Lost', actor: who });
    expect(lost.status).toBe('pending');
    await pollLockRecords({ tenantId: door.tenantId, lockId: door.lockId });
    expect(
      await confirmRemoteUnlock({ tenantId: door.tenantId, remoteUnlockId: lost.id, attempt: 1, maxAttempts: 1 }),
    ).toBe('failed');
    expect(await unlockRow(door.tenantId, lost.id)).toMatchObject({ status: 'failed', error: 'unconfirmed' });
    setInstallLockProviderForTests(env.sim.provider({ timeoutMs: 2_000 }));
  });
});
