import type { Tx } from '../db/tx';

/**
 * Takes the row locks of these keys, in id order, before anything locks their doors. Every change
 * to a key locks the key first and its doors after (a revocation, an expiry, a check-in's hand-off:
 * the key's update ends its doors by trigger), while a door's update syncs its key by trigger — so a
 * door updated first would hold the door and wait for the key while the revocation holds the key and
 * waits for the door: a deadlock. Door writers call this first, and wait for the key holding nothing.
 */
export async function lockKeysBeforeDoors(tx: Tx, tenantId: string, keyIds: string[]): Promise<void> {
  if (keyIds.length === 0) return;
  await tx.$queryRaw`select id from access_keys
    where tenant_id = ${tenantId}::uuid and id = any(${keyIds}::uuid[]) order by id for no key update`;
}
