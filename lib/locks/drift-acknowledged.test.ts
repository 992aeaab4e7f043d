import { describe, expect, it } from 'vitest';
import { programKeyOnLock } from './sync-provider';
import { fakeDevice, tenantOnProvider, withFakeSeam } from '../../tooling/testing/fake-lock-provider';
import { bookRoom, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { acknowledgeLockDrift } from './acknowledge-drift';
import { addRoomLock } from './locks';
import { checkTenantLocks, reconcileLock } from './reconcile';

// A drift incident caused by a code we did not make can be acknowledged by a manager, and then it
// neither reopens nor mails again until something changes; a device that vanished from the
// provider's list opens an incident (issue 28, item 11 e).
const env = withFakeSeam();

/** A tenant with a manager who gets incident mail, one room on the fake lock, a stay's key set on it. */
async function lockWithAManager() {
  const { tenantId, roomIds, locks } = await tenantOnProvider({ provider: 'seam' });
  const lockId = locks[0]!.id;
  await addRoomLock({ tenantId, roomId: roomIds[0]!, lockId, actor: TEST_ACTOR });
  const { rows: users } = await env.admin.query(
    `insert into users (email, password_hash) values ($1, 'x') returning id`,
    [`boss-${lockId}@example.com`],
  );
  await env.admin.query(`insert into memberships (tenant_id, user_id, role) values ($1, $2, 'manager')`, [
    tenantId,
    users[0].id,
  ]);
  const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]! });
  const { rows } = await env.admin.query(`select id from access_keys where reservation_id = $1`, [reservationId]);
  await programKeyOnLock({ tenantId, keyId: rows[0].id, attempt: 1, maxAttempts: 8 });
  return { tenantId, lockId };
}

async function driftIncidents(tenantId: string) {
  const { rows } = await env.admin.query(
    `select id, occurrences, resolved_at from incidents where tenant_id = $1 and kind = 'lock_drift' order by opened_at`,
    [tenantId],
  );
  return rows as { id: string; occurrences: number; resolved_at: Date | null }[];
}

async function incidentMails(tenantId: string): Promise<number> {
  const { rows } = await env.admin.query(
    `select count(*)::int as n from messages where tenant_id = $1 and kind in ('incident_opened', 'incident_raised')
        and incident_id in (select id from incidents where tenant_id = $1 and kind = 'lock_drift')`,
    [tenantId],
  );
  return rows[0].n;
}

describe('a drift incident from codes we did not make', () => {
  it('once acknowledged, neither reopens nor mails again until the unknown codes change', async () => {
    const { tenantId, lockId } = await lockWithAManager();
    env.fake.addForeignCode('door-1', '999999');
    await reconcileLock({ tenantId, lockId });
    // The same drift found again and again is one occurrence, not a mail every check.
    for (let i = 0; i < 5; i++) await reconcileLock({ tenantId, lockId });
    const [open] = await driftIncidents(tenantId);
    expect(open).toMatchObject({ occurrences: 1, resolved_at: null });
    expect(await incidentMails(tenantId)).toBe(1);

    expect(await acknowledgeLockDrift({ tenantId, incidentId: open!.id, actor: TEST_ACTOR })).toMatchObject({
      lockId,
      acknowledged: 1,
    });
    for (let i = 0; i < 5; i++) await checkTenantLocks(tenantId);
    expect(await driftIncidents(tenantId)).toMatchObject([{ id: open!.id, resolved_at: expect.any(Date) }]);
    expect(await incidentMails(tenantId)).toBe(1);
    const { rows: audit } = await env.admin.query(
      `select metadata from audit_events where tenant_id = $1 and action = 'lock.drift_acknowledged' and subject_id = $2`,
      [tenantId, lockId],
    );
    expect(audit).toMatchObject([{ metadata: { incidentId: open!.id, codes: 1 } }]);

    // Something changed: another code we did not make. A new incident, and a mail.
    env.fake.addForeignCode('door-1', '888888');
    await reconcileLock({ tenantId, lockId });
    const after = await driftIncidents(tenantId);
    expect(after).toHaveLength(2);
    expect(after[1]).toMatchObject({ resolved_at: null });
    expect(await incidentMails(tenantId)).toBe(2);
  });

  it('that is not a drift incident, or another tenant’s, cannot be acknowledged', async () => {
    const { tenantId, lockId } = await lockWithAManager();
    env.fake.addForeignCode('door-1', '777777');
    await reconcileLock({ tenantId, lockId });
    const [open] = await driftIncidents(tenantId);
    const other = await lockWithAManager();
    await expect(
      acknowledgeLockDrift({ tenantId: other.tenantId, incidentId: open!.id, actor: TEST_ACTOR }),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect((await driftIncidents(tenantId))[0]).toMatchObject({ resolved_at: null });
  });
});

describe('a device the provider no longer lists', () => {
  it('opens an incident naming the keys on it, resolved when it is listed again', async () => {
    const { tenantId, lockId } = await lockWithAManager();
    env.fake.state.devices = [];
    await checkTenantLocks(tenantId);
    await checkTenantLocks(tenantId);
    const { rows } = await env.admin.query(
      `select kind, severity, occurrences, detail from incidents where tenant_id = $1 and resolved_at is null`,
      [tenantId],
    );
    expect(rows).toMatchObject([
      { kind: 'lock_missing', severity: 'critical', occurrences: 1, detail: { lockId, keyIds: [expect.any(String)] } },
    ]);
    expect((await env.admin.query(`select offline_reason from locks where id = $1`, [lockId])).rows).toEqual([
      { offline_reason: 'missing' },
    ]);
    env.fake.state.devices = [fakeDevice('door-1')];
    await checkTenantLocks(tenantId);
    expect(
      (await env.admin.query(`select kind from incidents where tenant_id = $1 and resolved_at is null`, [tenantId]))
        .rows,
    ).toEqual([]);
  });
});
