import { resolveIncidentStatement } from '../incidents/incidents';
import type { Actor } from '../audit/actor';
import { asService, runInTransaction, sqlArray, sqlLiteral, statement } from '../db/tx';
import { AppError } from '../errors';
import { lockCondition } from './lock-events';
import { writeAuditEvent } from '../audit/write-audit-event';

/**
 * A manager acknowledges the codes a lock's open drift incident names as not made by UnlockOS (a
 * master code, the owner's own): the lock keeps that set (`acknowledged_foreign_codes`, the provider's
 * code ids), the incident resolves, and reconciliation no longer counts those codes as drift — so it
 * neither reopens nor mails again until a code outside that set appears. Audited
 * `lock.drift_acknowledged`. Anything but an open `lock_drift` incident of this tenant is `not_found`.
 */
export async function acknowledgeLockDrift({
  tenantId,
  incidentId,
  actor,
}: {
  tenantId: string;
  incidentId: string;
  actor: Actor;
}): Promise<{ lockId: string; acknowledged: number }> {
  return asService({ tenantId }, async (tx) => {
    const [rows] = await runInTransaction(tx, [
      statement<{ detail: { lockId?: unknown; foreignCodeIds?: unknown } }>(`
      select detail from incidents
       where tenant_id = ${sqlLiteral(tenantId, 'uuid')} and id = ${sqlLiteral(incidentId, 'uuid')}
         and kind = 'lock_drift' and resolved_at is null
       for update`),
    ]);
    const detail = rows[0]?.detail;
    const lockId = typeof detail?.lockId === 'string' ? detail.lockId : null;
    if (!lockId) throw new AppError('not_found', 'No open drift incident with this id.');
    const codes = Array.isArray(detail?.foreignCodeIds)
      ? detail.foreignCodeIds.filter((id): id is string => typeof id === 'string')
      : [];
    const [updated] = await runInTransaction(tx, [
      statement(`update locks set acknowledged_foreign_codes = ${sqlArray(codes, 'text')},
        foreign_codes_acknowledged_at = now(), updated_at = now()
      where tenant_id = ${sqlLiteral(tenantId, 'uuid')} and id = ${sqlLiteral(lockId, 'uuid')}
      returning 1 as updated`),
    ]);
    if (updated.length === 0) throw new AppError('not_found', 'The lock of this incident no longer exists.');
    await runInTransaction(tx, [resolveIncidentStatement({ tenantId, conditionKey: lockCondition.drift(lockId) })]);
    await writeAuditEvent(tx, {
      tenantId,
      actor,
      action: 'lock.drift_acknowledged',
      subject: { type: 'lock', id: lockId },
      metadata: { incidentId, codes: codes.length },
    });
    return { lockId, acknowledged: codes.length };
  });
}
