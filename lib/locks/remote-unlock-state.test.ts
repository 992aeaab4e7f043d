import { describe, expect, it } from 'vitest';
import { adminClient, createBookableTenant } from '../../tooling/testing/fixtures';
import { remoteUnlockState } from './remote-unlock-state';

describe('where a remote unlock stands', () => {
  it('reads the tenant’s own request with the provider’s code, and nothing of another tenant’s', async () => {
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 1 });
    const other = await createBookableTenant({ rooms: 1 });
    const admin = await adminClient();
    const { rows } = await admin.query<{ id: string }>(
      `insert into remote_unlocks (tenant_id, lock_id, actor_type, actor_label, reason, status, error)
       select $1, d.lock_id, 'user', 'Desk Sato', 'Guest locked out', 'failed', 'gateway_offline'
         from room_locks d where d.tenant_id = $1 and d.room_id = $2
       returning id`,
      [tenantId, roomIds[0]],
    );
    await admin.end();
    const id = rows[0]!.id;

    expect(await remoteUnlockState({ tenantId, remoteUnlockId: id })).toEqual({
      id,
      status: 'failed',
      error: 'gateway_offline',
    });
    expect(await remoteUnlockState({ tenantId: other.tenantId, remoteUnlockId: id })).toBeNull();
  });
});
