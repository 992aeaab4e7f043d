import { describe, expect, it } from 'vitest';
import { completeCheckIn } from '../stays/complete-check-in';
import { adminClient, bookRoom, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { scopedQuery, sqlLiteral } from '../db/tx';
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

  it("sweeps one tenant at a time: a tenant's run never ends another tenant's key", async () => {
    const a = await createBookableTenant({ rooms: 1 });
    const b = await createBookableTenant({ rooms: 1 });
    const due = async (tenantId: string, roomId: string) => {
      const { reservationId } = await bookRoom({ tenantId, roomId, startsInHours: -1 });
      const admin = await adminClient();
      const { rows } = await admin.query<{ id: string }>(
        `update access_keys set valid_from = now() - interval '2 days', expires_at = now() - interval '1 minute'
          where reservation_id = $1 returning id`,
        [reservationId],
      );
      await admin.end();
      return rows[0]!.id;
    };
    const keyA = await due(a.tenantId, a.roomIds[0]!);
    const keyB = await due(b.tenantId, b.roomIds[0]!);
    const statusOf = async (id: string) => {
      const admin = await adminClient();
      const { rows } = await admin.query<{ status: string }>('select status from access_keys where id = $1', [id]);
      await admin.end();
      return rows[0]!.status;
    };

    // A's run, as A's service role: A's key ends, B's does not, even when A's run names B.
    const sweepAs = async (scopeTenant: string, named: string) =>
      (
        await scopedQuery({ role: 'app_service', tenantId: scopeTenant }, [
          `select expire_due_keys(${sqlLiteral(named, 'uuid')}) as n`,
        ])
      )[0];
    expect(await sweepAs(a.tenantId, a.tenantId)).toEqual([{ n: 1 }]);
    expect(await sweepAs(a.tenantId, b.tenantId)).toEqual([{ n: 0 }]);
    expect([await statusOf(keyA), await statusOf(keyB)]).toEqual(['expired', 'pre_issued']);

    // The worker's sweep finds B among the tenants with keys due.
    expect(await expireDueKeys()).toBeGreaterThanOrEqual(1);
    expect(await statusOf(keyB)).toBe('expired');
  });
});
