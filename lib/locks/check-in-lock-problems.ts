import { runStatements, sqlArray, sqlLiteral, type Statement } from '../db/tx';
import { doorProblem, lockDown, type LockProblem } from './lock-problems';

export type CheckInLockProblem = { lockName: string | null; problem: LockProblem };

type Row = {
  reservation_id: string;
  lock_name: string | null;
  online: boolean | null;
  offline_reason: string | null;
  door_state: string | null;
  door_error: string | null;
};

/**
 * Why a stay's new PIN may not reach its door if checked in now, per reservation: the room has no
 * door, a door's lock is offline or gone from its provider, or the stay's pre-issued key failed on a
 * door (its lock took no code). A reservation with nothing known to be wrong has no entry. One
 * statement, to run with the page's other reads (`runStatements`), as the tenant's staff.
 */
export function checkInLockProblemsStatement({
  tenantId,
  reservationIds,
}: {
  tenantId: string;
  reservationIds: string[];
}): Statement<Map<string, CheckInLockProblem[]>> {
  return {
    sql:
      reservationIds.length === 0
        ? null
        : `select r.id as reservation_id, l.name as lock_name, l.online, l.offline_reason,
                  d.state::text as door_state, d.error as door_error
             from reservations r
             left join room_locks rl on rl.tenant_id = r.tenant_id and rl.room_id = r.room_id
             left join locks l on l.tenant_id = rl.tenant_id and l.id = rl.lock_id
             left join lateral (
               select c.state, c.error from key_lock_codes c
                 join access_keys k on k.tenant_id = c.tenant_id and k.id = c.key_id
                where c.tenant_id = r.tenant_id and c.lock_id = l.id and k.reservation_id = r.id
                  and k.status in ('pre_issued', 'active') and k.kind = 'guest'
                order by k.created_at desc limit 1) d on true
            where r.tenant_id = ${sqlLiteral(tenantId, 'uuid')} and r.id = any(${sqlArray(reservationIds, 'uuid')})
            order by r.id, l.name`,
    rows: (rows) => {
      const problems = new Map<string, CheckInLockProblem[]>();
      for (const row of rows as Row[]) {
        const lock = { online: row.online, offlineReason: row.offline_reason };
        const problem =
          row.lock_name === null
            ? 'no_lock'
            : (doorProblem({ state: row.door_state ?? 'set', error: row.door_error }, lock) ?? lockDown(lock));
        if (problem)
          problems.set(row.reservation_id, [
            ...(problems.get(row.reservation_id) ?? []),
            { lockName: row.lock_name, problem },
          ]);
      }
      return problems;
    },
  };
}

/** `checkInLockProblemsStatement` for one reservation, in one round trip. */
export async function checkInLockProblems({
  tenantId,
  userId,
  reservationId,
}: {
  tenantId: string;
  userId?: string | null;
  reservationId: string;
}): Promise<CheckInLockProblem[]> {
  const [problems] = await runStatements({ role: 'app_authenticated', tenantId, userId }, [
    checkInLockProblemsStatement({ tenantId, reservationIds: [reservationId] }),
  ]);
  return problems.get(reservationId) ?? [];
}
