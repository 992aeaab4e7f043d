import { withTenant, type Tx } from '../db/tx';
import {
  nameRecords,
  type LockName,
  type ReservationName,
  type RoomName,
  type WebhookEventName,
} from '../records/name-records';

/** How many affected stays an incident names; the rest are counted. */
export const INCIDENT_STAYS_SHOWN = 5;

/** What an incident is about, named for a person and linkable: the stays it affects, the door, the room, the event. */
export type IncidentContext = {
  stays: ReservationName[];
  /** Affected keys not named in `stays`. */
  moreStays: number;
  lock: LockName | null;
  room: RoomName | null;
  webhookEvent: WebhookEventName | null;
  /** The provider event type no booking source maps (a `booking_unmapped` incident). */
  eventType: string | null;
};

export type IncidentView = {
  id: string;
  kind: string;
  severity: string;
  summary: string;
  occurrences: number;
  detail: Record<string, unknown>;
  openedAt: Date;
  updatedAt: Date;
  resolvedAt: Date | null;
  context: IncidentContext;
};

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const keyIdsOf = (detail: Record<string, unknown>): unknown[] => (Array.isArray(detail.keyIds) ? detail.keyIds : []);

/** Names what each incident's detail refers to (ids only are stored there), in one lookup per kind. */
async function withContext(tx: Tx, tenantId: string, rows: Omit<IncidentView, 'context'>[]): Promise<IncidentView[]> {
  const names = await nameRecords(tx, tenantId, {
    keyIds: rows.flatMap((r) => keyIdsOf(r.detail).slice(0, INCIDENT_STAYS_SHOWN)),
    lockIds: rows.map((r) => r.detail.lockId),
    roomIds: rows.map((r) => r.detail.roomId),
    webhookEventIds: rows.map((r) => r.detail.webhookEventId),
  });
  return rows.map((row) => {
    const keyIds = keyIdsOf(row.detail);
    const stays = keyIds
      .slice(0, INCIDENT_STAYS_SHOWN)
      .flatMap((id) => (typeof id === 'string' && names.keys[id.toLowerCase()] ? [names.keys[id.toLowerCase()]!] : []));
    const lockId = text(row.detail.lockId)?.toLowerCase();
    const roomId = text(row.detail.roomId)?.toLowerCase();
    const eventId = text(row.detail.webhookEventId)?.toLowerCase();
    return {
      ...row,
      context: {
        stays,
        moreStays: Math.max(0, keyIds.length - stays.length),
        lock: (lockId && names.locks[lockId]) || null,
        room: (roomId && names.rooms[roomId]) || null,
        webhookEvent: (eventId && names.webhookEvents[eventId]) || null,
        eventType: row.kind === 'booking_unmapped' ? text(row.detail.eventType) : null,
      },
    };
  });
}

/**
 * A tenant's incidents, with those of the whole install (no tenant: a worker or the lock provider
 * down): open ones first (newest update first), then the most recently resolved — each naming the
 * stays (room and guest), lock, room and provider event it is about.
 */
export async function listIncidents({
  tenantId,
  resolvedLimit = 50,
}: {
  tenantId: string;
  resolvedLimit?: number;
}): Promise<{ open: IncidentView[]; resolved: IncidentView[] }> {
  return withTenant({ tenantId }, async (tx) => {
    const select = {
      id: true,
      kind: true,
      severity: true,
      summary: true,
      occurrences: true,
      detail: true,
      openedAt: true,
      updatedAt: true,
      resolvedAt: true,
    } as const;
    const mine = { OR: [{ tenantId }, { tenantId: null }] };
    const open = await tx.incident.findMany({
      where: { ...mine, resolvedAt: null },
      select,
      orderBy: [{ updatedAt: 'desc' }, { id: 'asc' }],
    });
    const resolved = await tx.incident.findMany({
      where: { ...mine, resolvedAt: { not: null } },
      select,
      orderBy: [{ resolvedAt: 'desc' }, { id: 'asc' }],
      take: resolvedLimit,
    });
    const cast = (rows: typeof open) =>
      rows.map((r) => ({ ...r, detail: (r.detail ?? {}) as Record<string, unknown> }));
    return {
      open: await withContext(tx, tenantId, cast(open)),
      resolved: await withContext(tx, tenantId, cast(resolved)),
    };
  });
}

export type BillingFailureView = {
  id: string;
  kind: string;
  day: Date;
  detail: Record<string, unknown>;
  createdAt: Date;
};

/** A tenant's billing failures (one per kind and day), newest first. */
export async function listBillingFailures({
  tenantId,
  limit = 90,
}: {
  tenantId: string;
  limit?: number;
}): Promise<BillingFailureView[]> {
  const rows = await withTenant({ tenantId }, (tx) =>
    tx.billingFailure.findMany({ where: { tenantId }, orderBy: [{ day: 'desc' }, { kind: 'asc' }], take: limit }),
  );
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    day: r.day,
    detail: (r.detail ?? {}) as Record<string, unknown>,
    createdAt: r.createdAt,
  }));
}
