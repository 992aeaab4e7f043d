import { withTenant } from '../db/tx';

/**
 * A tenant at a glance for its managers: facilities (with room counts), rooms with their lock
 * devices, staff, and API keys (never a secret), read as the tenant's staff in one transaction.
 */
export async function tenantOverview({ tenantId, userId }: { tenantId: string; userId?: string | null }) {
  // One transaction, queries in sequence (an interactive transaction holds a single connection).
  return withTenant({ tenantId, userId }, async (tx) => {
    const facilities = await tx.facility.findMany({
      where: { tenantId },
      select: { id: true, name: true, timeZone: true, _count: { select: { rooms: true } } },
      orderBy: { name: 'asc' },
    });
    const rooms = await tx.room.findMany({
      where: { tenantId },
      select: {
        id: true,
        label: true,
        facility: { select: { name: true } },
        roomLocks: { select: { lock: { select: { name: true, deviceId: true } } }, orderBy: { createdAt: 'asc' } },
      },
      orderBy: [{ facility: { name: 'asc' } }, { label: 'asc' }],
    });
    // app_authenticated may read only id, email, name and created_at of users.
    const members = await tx.membership.findMany({
      where: { tenantId },
      select: { role: true, user: { select: { id: true, email: true, name: true } } },
      orderBy: { createdAt: 'asc' },
    });
    const apiKeys = await tx.apiKey.findMany({
      where: { tenantId },
      select: { id: true, name: true, prefix: true, createdAt: true, lastUsedAt: true, revokedAt: true },
      orderBy: { createdAt: 'desc' },
    });
    return { facilities, rooms, members, apiKeys };
  });
}
