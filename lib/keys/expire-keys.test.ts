import { describe, expect, it } from 'vitest';
import { completeCheckIn } from '../stays/complete-check-in';
import { adminClient, bookRoom, createBookableTenant, TEST_ACTOR } from '../testing/fixtures';
import { expireDueKeys } from './expire-keys';

describe('the expiry sweep', () => {
  it('expires live keys past their end, with an audit row and the removal queued, and leaves the rest', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    const past = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: -1 });
    const future = await bookRoom({ tenantId, roomId: roomIds[1]! });
    const { key } = await completeCheckIn({ tenantId, reservationId: past.reservationId, actor: TEST_ACTOR });
    const admin = await adminClient();
    await admin.query(
      `update access_keys set valid_from = now() - interval '2 days', expires_at = now() - interval '1 minute' where id = $1`,
      [key.id],
    );

    expect(await expireDueKeys()).toBeGreaterThanOrEqual(1);
    const { rows } = await admin.query(
      `select id, status, vendor_sync from access_keys where tenant_id = $1 order by created_at`,
      [tenantId],
    );
    expect(rows.find((r) => r.id === key.id)).toMatchObject({ status: 'expired', vendor_sync: 'pending' });
    expect(rows.filter((r) => r.status === 'pre_issued')).toHaveLength(1);
    const audit = await admin.query(
      `select action, reason, actor_type from audit_events where subject_id = $1 and action = 'key.expired'`,
      [key.id],
    );
    expect(audit.rows).toEqual([{ action: 'key.expired', reason: 'stay_ended', actor_type: 'system' }]);
    const jobs = await admin.query(
      `select t.identifier as task_identifier from graphile_worker._private_jobs j
       join graphile_worker._private_tasks t on t.id = j.task_id where j.payload->>'keyId' = $1 order by j.id`,
      [key.id],
    );
    expect(jobs.rows.map((j) => j.task_identifier)).toContain('vendor_remove_key');
    expect(await expireDueKeys()).toBe(0);
    void future;
    await admin.end();
  });
});
