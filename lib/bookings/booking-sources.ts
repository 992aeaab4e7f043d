import { asService, withTenant } from '../db/tx';
import { AppError } from '../errors';

/** Maps a provider's event type (Calendly event type URI, Cal.com event type id) to one of the tenant's rooms. */
export async function addBookingSource(input: {
  tenantId: string;
  provider: 'calendly' | 'cal';
  eventType: string;
  roomId: string;
}): Promise<{ id: string }> {
  const { tenantId } = input;
  return asService({ tenantId }, async (tx) => {
    const rooms = await tx.room.count({ where: { tenantId, id: input.roomId } });
    if (rooms !== 1) throw new AppError('not_found', 'No such room.');
    return tx.bookingSource.upsert({
      where: { tenantId_provider_eventType: { tenantId, provider: input.provider, eventType: input.eventType } },
      create: { tenantId, provider: input.provider, eventType: input.eventType, roomId: input.roomId },
      update: { roomId: input.roomId },
      select: { id: true },
    });
  });
}

/** A tenant's booking sources with their rooms. */
export async function listBookingSources({ tenantId }: { tenantId: string }) {
  return withTenant({ tenantId }, (tx) =>
    tx.bookingSource.findMany({
      where: { tenantId },
      include: { room: { select: { label: true } } },
      orderBy: [{ provider: 'asc' }, { eventType: 'asc' }],
    }),
  );
}
