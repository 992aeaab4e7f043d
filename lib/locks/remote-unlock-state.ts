import { runStatements, sqlLiteral, statement } from '../db/tx';

/** Where one remote unlock stands: asked, waiting for the provider, done, or failed with the provider's code. */
export type RemoteUnlockView = {
  id: string;
  status: 'requested' | 'pending' | 'done' | 'failed';
  /** The provider's failure code (`unconfirmed` when nothing ever confirmed it). */
  error: string | null;
};

/**
 * One remote unlock of the tenant as staff read it (the desk follows a pending one until its provider or the door's
 * entry settles it); null for another tenant's or none.
 */
export async function remoteUnlockState({
  tenantId,
  userId,
  remoteUnlockId,
}: {
  tenantId: string;
  userId?: string;
  remoteUnlockId: string;
}): Promise<RemoteUnlockView | null> {
  const [rows] = await runStatements({ role: 'app_authenticated', tenantId, userId }, [
    statement<RemoteUnlockView>(
      `select u.id, u.status, u.error from remote_unlocks u
        where u.tenant_id = ${sqlLiteral(tenantId, 'uuid')} and u.id = ${sqlLiteral(remoteUnlockId, 'uuid')}`,
    ),
  ]);
  return rows.length === 1 ? rows[0]! : null;
}
