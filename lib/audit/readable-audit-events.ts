import { withTenant, type Tx } from '../db/tx';
import {
  nameRecords,
  type LockName,
  type ReservationName,
  type RoomName,
  type WebhookEventName,
} from '../records/name-records';
import { auditEventsPage, type listAuditEvents, type AuditEventView } from './list-audit-events';

/** What an audit row is about, named for a person: the stay (room and guest), the door, the provider's event. */
export type AuditContext = {
  reservation: ReservationName | null;
  lock: LockName | null;
  /** The room, when the row names no stay (a room or lock change). */
  room: RoomName | null;
  /** The provider event that made the change (its actor), in the webhook log. */
  webhookEvent: WebhookEventName | null;
};

export type ReadableAuditEvent = AuditEventView & { context: AuditContext };

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * Names what each audit row is about, read now (the rows themselves keep ids only: they are
 * append-only, and a name copied into them would outlive the guest's deletion).
 */
export async function readableAuditEvents(
  tx: Tx,
  tenantId: string,
  events: AuditEventView[],
): Promise<ReadableAuditEvent[]> {
  const subjectIds = (type: string) => events.filter((e) => e.subject.type === type).map((e) => e.subject.id);
  const names = await nameRecords(tx, tenantId, {
    reservationIds: [...subjectIds('reservation'), ...events.map((e) => e.metadata.reservationId)],
    keyIds: subjectIds('access_key'),
    lockIds: [...subjectIds('lock'), ...events.map((e) => e.metadata.lockId)],
    roomIds: events.map((e) => e.roomId),
    webhookEventIds: events.filter((e) => e.actor.type === 'provider').map((e) => e.actor.id),
  });
  return events.map((event) => {
    const { type, id } = event.subject;
    const key = type === 'access_key' && id ? names.keys[id] : undefined;
    const reservationId = type === 'reservation' ? id : text(event.metadata.reservationId);
    const reservation = key ?? (reservationId ? names.reservations[reservationId.toLowerCase()] : undefined) ?? null;
    const lockId = type === 'lock' ? id : text(event.metadata.lockId);
    const webhookEventId = event.actor.type === 'provider' ? event.actor.id : null;
    return {
      ...event,
      context: {
        reservation,
        lock: (lockId && names.locks[lockId.toLowerCase()]) || null,
        room: reservation ? null : (event.roomId && names.rooms[event.roomId]) || null,
        webhookEvent: (webhookEventId && names.webhookEvents[webhookEventId.toLowerCase()]) || null,
      },
    };
  });
}

/** One page of the audit log as the manager's page shows it: `listAuditEvents` with each row's context named, in one transaction. */
export function listReadableAuditEvents(
  input: Parameters<typeof listAuditEvents>[0],
): Promise<{ data: ReadableAuditEvent[]; nextCursor: string | null }> {
  return withTenant({ tenantId: input.tenantId }, async (tx) => {
    const page = await auditEventsPage(tx, input);
    return { data: await readableAuditEvents(tx, input.tenantId, page.data), nextCursor: page.nextCursor };
  });
}
