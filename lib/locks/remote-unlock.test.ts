import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { startSeamFake } from '../../tooling/testing/seam-fake';
import { seamEvent, sendSeam } from '../../tooling/testing/seam-webhooks';
import { newSvixSecret } from '../../tooling/testing/svix';
import { setProviderSecret } from '../secrets/provider-secrets';
import { processWebhookEvent } from '../webhooks/process-event';
import { syncLocks } from './locks';
import { remoteUnlock, ZRemoteUnlockBodySchema } from './remote-unlock';
import './seam';

// Remote unlock from the desk against Seam's own fake (which answers locks/unlock_door with an action attempt): the
// provider's action confirms it, the request is audited with its reason, and the entry the lock then reports names
// the person who asked.
let admin: pg.Client;
let seam: Awaited<ReturnType<typeof startSeamFake>>;
let tenantId: string;
let secret: string;
let lock: { id: string; deviceId: string };
let person: { type: 'user'; id: string; label: string };

beforeAll(async () => {
  admin = await adminClient();
  seam = await startSeamFake('remote');
  ({ tenantId } = await createBookableTenant({ rooms: 1, lockDevices: false, name: 'Remote' }));
  secret = newSvixSecret();
  await seam.useFor(tenantId);
  await setProviderSecret({ tenantId, provider: 'seam_webhook', value: secret, actor: TEST_ACTOR });
  const { locks } = await syncLocks({ tenantId, actor: TEST_ACTOR });
  lock = locks.find((l) => l.deviceId === 'august_device_1')!;
  const userId = (
    await admin.query<{ id: string }>(`insert into users (email, name) values ($1, 'Desk Person') returning id`, [
      `desk-${randomUUID()}@example.com`,
    ])
  ).rows[0]!.id;
  person = { type: 'user', id: userId, label: 'Desk Person' };
});
afterAll(async () => {
  await seam.stop();
  await admin.end();
});

describe('remote unlock', () => {
  it('opens a Seam door, confirmed by the action attempt, audited with the reason, and links the entry to the person', async () => {
    const unlocked = await remoteUnlock({ tenantId, lockId: lock.id, reason: 'Guest locked out', actor: person });
    expect(unlocked).toMatchObject({ lockId: lock.id, status: 'unlocked', actionId: expect.any(String) });
    const { rows } = await admin.query(
      `select user_id, reason, status, action_id from remote_unlocks where tenant_id = $1 and id = $2`,
      [tenantId, unlocked.id],
    );
    expect(rows).toEqual([
      { user_id: person.id, reason: 'Guest locked out', status: 'unlocked', action_id: unlocked.actionId },
    ]);
    const audit = await admin.query(
      `select actor_id, reason, metadata from audit_events where tenant_id = $1 and action = 'lock.remote_unlocked'`,
      [tenantId],
    );
    expect(audit.rows).toEqual([
      {
        actor_id: person.id,
        reason: 'Guest locked out',
        metadata: { lock: expect.any(String), outcome: 'unlocked', error: null },
      },
    ]);
    // Seam reports the opening with the action's id: the entry names who asked.
    await sendSeam(
      tenantId,
      seamEvent('lock.unlocked', { device_id: lock.deviceId, action_attempt_id: unlocked.actionId, method: 'seamapi' }),
      { secret },
    );
    const pending = await admin.query(`select id from webhook_events where tenant_id = $1 and status = 'received'`, [
      tenantId,
    ]);
    for (const row of pending.rows) await processWebhookEvent({ eventId: row.id, attempt: 1, maxAttempts: 10 });
    const entries = await admin.query(`select method, user_id, key_id from door_entries where tenant_id = $1`, [
      tenantId,
    ]);
    expect(entries.rows).toEqual([{ method: 'app', user_id: person.id, key_id: null }]);
  });

  it('needs a reason, refuses another tenant’s lock and a lock that cannot, and is rate limited per lock', async () => {
    expect(ZRemoteUnlockBodySchema.safeParse({ reason: '  ' }).success).toBe(false);
    expect(ZRemoteUnlockBodySchema.safeParse({}).success).toBe(false);
    const count = async () =>
      (await admin.query(`select count(*)::int as n from remote_unlocks where tenant_id = $1`, [tenantId])).rows[0].n;
    const before = await count();
    const other = await createBookableTenant({ rooms: 1 });
    const theirs = (
      await admin.query<{ id: string }>(`select id from locks where tenant_id = $1 limit 1`, [other.tenantId])
    ).rows[0]!.id;
    await expect(remoteUnlock({ tenantId, lockId: theirs, reason: 'probe', actor: person })).rejects.toMatchObject({
      code: 'not_found',
    });
    // The install's simulated locks have no remote unlock.
    await expect(
      remoteUnlock({ tenantId: other.tenantId, lockId: theirs, reason: 'Guest locked out', actor: person }),
    ).rejects.toMatchObject({ code: 'not_supported' });
    expect(await count()).toBe(before);
    // Three a minute per lock: the fourth is refused before the provider is asked.
    const results = await Promise.allSettled(
      [1, 2, 3].map(() => remoteUnlock({ tenantId, lockId: lock.id, reason: 'Again', actor: person })),
    );
    const refused = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.code);
    expect(refused).toEqual(['rate_limited']);
    expect(await count()).toBe(before + 2);
  });
});
