import type { Actor } from '../audit/actor';
import { asService } from '../db/tx';
import { AppError } from '../errors';

export const GUEST_DELETED = 'guest_deleted';

/**
 * Deletes a guest's personal data in one transaction: first revokes the live keys of their current
 * and future reservations (reason `guest_deleted`, audited), then removes the guests row.
 * Reservations stay (guest_id becomes null; their snapshots remain) and every audit row stays.
 */
export async function deleteGuest({ tenantId, guestId, actor }: { tenantId: string; guestId: string; actor: Actor }): Promise<void> {
  await asService({ tenantId }, async (tx) => {
    const guests = await tx.$queryRaw<{ id: string }[]>`select id from guests where tenant_id = ${tenantId}::uuid and id = ${guestId}::uuid for update`;
    if (guests.length !== 1) throw new AppError('not_found', 'No such guest.');
    const keys = await tx.$queryRaw<{ id: string }[]>`select k.id from access_keys k
      join reservations r on r.tenant_id = k.tenant_id and r.id = k.reservation_id
      where k.tenant_id = ${tenantId}::uuid and r.guest_id = ${guestId}::uuid and r.ends_at > now()
        and k.status in ('pre_issued', 'active') order by k.created_at`;
    for (const key of keys) {
      await tx.$queryRaw`select id from app_end_key(${tenantId}::uuid, ${key.id}::uuid, 'revoked', ${GUEST_DELETED},
        ${actor.type}::actor_type, ${actor.id}, ${actor.label})`;
    }
    const refs = await tx.reservation.findMany({ where: { tenantId, guestId }, select: { guestRefSnapshot: true }, take: 1 });
    await tx.guest.deleteMany({ where: { tenantId, id: guestId } });
    await tx.auditEvent.create({
      data: {
        tenantId, actorType: actor.type, actorId: actor.id, actorLabel: actor.label, action: 'guest.deleted', subjectType: 'guest', subjectId: guestId,
        metadata: { guestRef: refs[0]?.guestRefSnapshot ?? null, revokedKeyIds: keys.map((k) => k.id) },
      },
    });
  });
}
