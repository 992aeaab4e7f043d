import type { Actor } from '../audit/actor';
import { writeAuditEvent } from '../audit/write-audit-event';
import { asService, runInTransaction, sqlLiteral, statement } from '../db/tx';
import { currentKeyring } from '../secrets/data-key';

/**
 * Re-encrypts every guest register row on an older data key version (passport number and image) with
 * the current key, each read with the key of its own version, audited `registration.rotated` per tenant,
 * all in one transaction: a missing or wrong older key fails closed and nothing changes. The operator's
 * `secrets-rotate` runs it with the provider secrets' rotation.
 */
export async function rotateGuestRegisters({ actor }: { actor: Actor }): Promise<{ rotated: number }> {
  const { current, keys } = currentKeyring();
  return asService(async (tx) => {
    const [rows] = await runInTransaction(tx, [
      statement<{ tenant_id: string; rows_rotated: number }>(
        `select * from app_registration_rotate(${sqlLiteral(JSON.stringify(keys), 'jsonb')}, ${sqlLiteral(current.version, 'int')})`,
      ),
    ]);
    for (const row of rows)
      await writeAuditEvent(tx, {
        tenantId: row.tenant_id,
        actor,
        action: 'registration.rotated',
        subject: { type: 'tenant', id: row.tenant_id },
        metadata: { guests: Number(row.rows_rotated), toVersion: current.version },
      });
    return { rotated: rows.reduce((sum, row) => sum + Number(row.rows_rotated), 0) };
  });
}
