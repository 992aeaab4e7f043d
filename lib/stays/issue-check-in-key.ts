import type { Actor } from '../audit/actor';
import { runStatements, statement, sqlLiteral } from '../db/tx';
import { AppError } from '../errors';
import type { AccessKeyRow, KeyView } from '../keys/key-view';
import { toKeyView } from '../keys/key-view';
import { singleFlight } from '../keys/single-flight';

const flight = singleFlight<KeyView>();

/**
 * The live key of a check-in, issued if there is none. Concurrent callers get the same key: one
 * in-flight call per check-in in this process, and across processes the SQL function
 * `issue_checkin_key` (advisory lock, expiry of a stale key, partial unique index). One round trip
 * (`scopedQuery`); with `apiKeyId`, the same transaction refuses a key revoked meanwhile (401).
 */
export function issueCheckInKey({
  tenantId,
  checkInId,
  actor,
  apiKeyId,
}: {
  tenantId: string;
  checkInId: string;
  actor: Actor;
  apiKeyId?: string;
}): Promise<KeyView> {
  // A caller with another API key never shares a call whose transaction checked a different key.
  return flight(`${tenantId}:${checkInId}:${apiKeyId ?? ''}`, async () => {
    const [rows] = await runStatements({ role: 'app_service', tenantId, apiKeyId }, [
      statement<AccessKeyRow>(`select * from issue_checkin_key(${sqlLiteral(tenantId, 'uuid')}, ${sqlLiteral(checkInId, 'uuid')},
        ${sqlLiteral(actor.type, 'actor_type')}, ${sqlLiteral(actor.id, 'text')}, ${sqlLiteral(actor.label, 'text')})`),
    ]);
    if (rows?.length !== 1) throw new AppError('internal', 'Key issuance returned no key.');
    return toKeyView(rows[0]!);
  });
}
