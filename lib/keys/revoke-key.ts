import type { Actor } from '../audit/actor';
import { asService, runInTransaction, sqlLiteral, statement } from '../db/tx';
import { AppError } from '../errors';
import { assertTransition, type KeyState } from './lifecycle';
import { toKeyView, type AccessKeyRow, type KeyView } from './key-view';

/**
 * Revokes one key of a tenant with a reason: audited `key.revoked`, and the vendor removal queued
 * in the same transaction. From a terminal state it fails with `illegal_transition`.
 */
export async function revokeKey({
  tenantId,
  keyId,
  reason,
  actor,
}: {
  tenantId: string;
  keyId: string;
  reason: string;
  actor: Actor;
}): Promise<KeyView> {
  return asService({ tenantId }, async (tx) => {
    const [current] = await runInTransaction(tx, [
      statement<{ status: KeyState }>(`select status from access_keys
      where tenant_id = ${sqlLiteral(tenantId, 'uuid')} and id = ${sqlLiteral(keyId, 'uuid')} for update`),
    ]);
    if (current.length !== 1) throw new AppError('not_found', 'No such key.');
    assertTransition(current[0]!.status, 'revoked');
    const [rows] = await runInTransaction(tx, [
      statement<AccessKeyRow>(`select * from app_end_key(${sqlLiteral(tenantId, 'uuid')},
        ${sqlLiteral(keyId, 'uuid')}, 'revoked',
      ${sqlLiteral(reason, 'text')}, ${sqlLiteral(actor.type, 'actor_type')}, ${sqlLiteral(actor.id, 'text')},
      ${sqlLiteral(actor.label, 'text')}) where id is not null`),
    ]);
    // The row lock above makes this unreachable, but a key that another path ended is never re-ended.
    if (rows.length !== 1)
      throw new AppError('illegal_transition', 'That key has already ended.', { from: 'ended', to: 'revoked' });
    return toKeyView(rows[0]!);
  });
}
