import type { Actor } from '../audit/actor';
import { runStatements, statement, sqlLiteral } from '../db/tx';
import { AppError } from '../errors';
import { toKeyView, type AccessKeyRow, type KeyView } from '../keys/key-view';

export type CheckInResult = { checkInId: string; key: KeyView; revokedKeyIds: string[] };

/**
 * The check-in hand-off, in one transaction and one round trip (the SQL function app_complete_check_in):
 * create the check-in, revoke every pre-issued key of the reservation (reason `superseded_by_checkin`,
 * an audit row each), issue the stay key.
 * Repeating it returns the same check-in, the same key and the same revoked keys.
 * Before the stay's start minus the facility's early check-in minutes it is `too_early` (with
 * `opensAt`) unless `early` — then it is audited as an early check-in, and refused while another
 * stay of the room overlaps the hours before the start (the trigger check_ins_guard_window).
 * With a guest actor it is the guest's self check-in (issue 31): `desk_check_in` where the desk checks
 * guests in, `too_early` before `startsAt − self_check_in_opens_hours`, `registration_required` until the
 * register is complete, never `early`; its key works no earlier than the early check-in allows.
 */
export async function completeCheckIn({
  tenantId,
  reservationId,
  actor,
  early = false,
}: {
  tenantId: string;
  reservationId: string;
  actor: Actor;
  early?: boolean;
}): Promise<CheckInResult> {
  // One SQL function (app_complete_check_in), one round trip: it locks the stay, then its keys.
  try {
    const [rows] = await runStatements({ role: 'app_service', tenantId }, [
      statement<
        AccessKeyRow & { check_in_id: string; revoked_key_ids: string[] }
      >(`select c.check_in_id, c.revoked_key_ids, (c.key).*
           from app_complete_check_in(${sqlLiteral(tenantId, 'uuid')}, ${sqlLiteral(reservationId, 'uuid')},
                ${sqlLiteral(early, 'boolean')}, ${sqlLiteral(actor.type, 'actor_type')},
                ${sqlLiteral(actor.id, 'text')}, ${sqlLiteral(actor.label, 'text')}) c`),
    ]);
    const row = rows?.[0];
    if (!row) throw new AppError('internal', 'The check-in returned no key.');
    const { check_in_id: checkInId, revoked_key_ids: revokedKeyIds, ...key } = row;
    return { checkInId, key: toKeyView(key), revokedKeyIds };
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found')
      throw new AppError('not_found', 'No such reservation.');
    throw error;
  }
}
