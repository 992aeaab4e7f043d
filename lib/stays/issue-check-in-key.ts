import type { Actor } from '../audit/actor';
import { asService } from '../db/tx';
import { AppError } from '../errors';
import type { AccessKeyRow, KeyView } from '../keys/key-view';
import { toKeyView } from '../keys/key-view';
import { singleFlight } from '../keys/single-flight';

const flight = singleFlight<KeyView>();

/**
 * The live key of a check-in, issued if there is none. Concurrent callers get the same key: one
 * in-flight call per check-in in this process, and across processes the SQL function
 * `issue_checkin_key` (advisory lock, expiry of a stale key, partial unique index).
 */
export function issueCheckInKey({
  tenantId,
  checkInId,
  actor,
}: {
  tenantId: string;
  checkInId: string;
  actor: Actor;
}): Promise<KeyView> {
  return flight(`${tenantId}:${checkInId}`, async () => {
    const rows = await asService(
      { tenantId },
      (tx) =>
        tx.$queryRaw<AccessKeyRow[]>`select * from issue_checkin_key(${tenantId}::uuid, ${checkInId}::uuid,
        ${actor.type}::actor_type, ${actor.id}, ${actor.label})`,
    );
    if (rows.length !== 1) throw new AppError('internal', 'Key issuance returned no key.');
    return toKeyView(rows[0]!);
  });
}
