import type { Actor } from '../audit/actor';
import { asService, runInTransaction, sqlLiteral, statement } from '../db/tx';
import { toKeyView, type AccessKeyRow, type KeyView } from './key-view';

export const KEY_REASON_REISSUED = 'reissued';

/**
 * Re-issues a key in one transaction (SQL `reissue_key`), audited `key.reissued` once:
 * - a live key → a new key with a different PIN in the same state and window; the old one is
 *   revoked (`reissued`) and its code leaves every door through the outbox;
 * - an ended guest key of a stay that still runs (held, confirmed or checked in, not over) and has
 *   no live key → a new key in the state the stay calls for (a revocation is no dead end);
 *   otherwise `illegal_transition` (a stay that ended, or one whose live key should be re-issued instead);
 * - a backup code, or a staff code that ended → `illegal_transition`.
 * A retry answers the same new key and writes nothing.
 */
export async function reissueKey({
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
  const [rows] = await asService({ tenantId }, (tx) =>
    runInTransaction(tx, [
      statement<AccessKeyRow>(`select * from reissue_key(${sqlLiteral(tenantId, 'uuid')},
        ${sqlLiteral(keyId, 'uuid')}, ${sqlLiteral(reason, 'text')},
      ${sqlLiteral(actor.type, 'actor_type')}, ${sqlLiteral(actor.id, 'text')}, ${sqlLiteral(actor.label, 'text')})`),
    ]),
  );
  return toKeyView(rows[0]!);
}

/**
 * A new key for a stay whose keys have all ended (or that never had one): re-issued from its latest
 * ended key (SQL `issue_new_stay_key`); a stay that has a live key gets that key back, unchanged.
 */
export async function issueNewStayKey({
  tenantId,
  reservationId,
  reason,
  actor,
}: {
  tenantId: string;
  reservationId: string;
  reason: string;
  actor: Actor;
}): Promise<KeyView> {
  const [rows] = await asService({ tenantId }, (tx) =>
    runInTransaction(tx, [
      statement<AccessKeyRow>(`select * from issue_new_stay_key(${sqlLiteral(tenantId, 'uuid')},
        ${sqlLiteral(reservationId, 'uuid')},
      ${sqlLiteral(reason, 'text')}, ${sqlLiteral(actor.type, 'actor_type')}, ${sqlLiteral(actor.id, 'text')},
      ${sqlLiteral(actor.label, 'text')})`),
    ]),
  );
  return toKeyView(rows[0]!);
}
