import { effectStatement, sqlArray, sqlLiteral, type Statement } from '../db/tx';

/**
 * Takes the locks every change to a key takes, in the same order, before anything locks its doors:
 * first its stay (the reservation row, `for key share`: what a change of the key's own row would
 * take by foreign key anyway, and what waits for a check-in, a cancellation or a check-out holding
 * the stay `for update`), then the key (in id order), then — by the caller — the doors.
 * A revocation, an expiry or a check-in's hand-off locks the stay, then the key, then by trigger
 * its doors; a door's update syncs its key by trigger. A door writer that took the door first held
 * the door and waited for the key while the revocation held the key and waited for the door; one
 * that took the key first held it and waited for the stay (the foreign-key check of its second
 * write to the key) while a check-in held the stay and waited for the key: both were deadlocks
 * (40P01, seen in CI between the worker and the desk). Door writers call this first, and wait
 * holding nothing. As statements: run them in the door writer's transaction (`runInTransaction`), or
 * first in the one round trip that then writes doors (`runStatements`).
 */
export function lockKeysBeforeDoorsStatements(tenantId: string, keyIds: string[]): Statement<void>[] {
  if (keyIds.length === 0) return [];
  const tenant = sqlLiteral(tenantId, 'uuid');
  const keys = sqlArray(keyIds, 'uuid');
  return [
    effectStatement(`select r.id from reservations r
      where r.tenant_id = ${tenant}
        and r.id in (select k.reservation_id from access_keys k where k.tenant_id = ${tenant} and k.id = any(${keys}))
      order by r.id for key share of r`),
    effectStatement(
      `select id from access_keys where tenant_id = ${tenant} and id = any(${keys}) order by id for no key update`,
    ),
  ];
}
