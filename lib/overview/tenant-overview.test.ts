import { describe, expect, it } from 'vitest';
import { createApiKey } from '../auth/api-keys';
import { createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { tenantOverview } from './tenant-overview';

describe('a tenant’s overview', () => {
  it('lists its own facilities, rooms, staff and API keys — never another tenant’s, never a secret', async () => {
    const a = await createBookableTenant({ rooms: 2 });
    const b = await createBookableTenant({ rooms: 1 });
    const { key } = await createApiKey({ tenantId: a.tenantId, name: 'pms', actor: TEST_ACTOR });
    await createApiKey({ tenantId: b.tenantId, name: 'other', actor: TEST_ACTOR });
    const overview = await tenantOverview({ tenantId: a.tenantId });
    expect(overview.facilities).toEqual([expect.objectContaining({ id: a.facilityId, _count: { rooms: 2 } })]);
    expect(overview.rooms.map((r) => r.id).sort()).toEqual([...a.roomIds].sort());
    expect(overview.apiKeys.map((k) => k.name)).toEqual(['pms']);
    expect(JSON.stringify(overview)).not.toContain(key);
  });
});
