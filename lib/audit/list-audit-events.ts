import { decodeCursor, encodeCursor } from '../paging/cursor';
import { withTenant, type Tx } from '../db/tx';
import type { Prisma } from '../db/generated/client';
import type { ActorType } from '../db/generated/enums';

export type AuditEventView = {
  id: string;
  occurredAt: string;
  actor: { type: string; id: string | null; label: string };
  action: string;
  subject: { type: string; id: string | null };
  roomId: string | null;
  reason: string | null;
  metadata: Record<string, unknown>;
};

export type AuditFilters = {
  action?: string;
  /** Any of these actions (a group the audit page offers: every door event). */
  actions?: string[];
  actorType?: ActorType;
  /** Matches the actor's label or id (case-insensitive substring). */
  actor?: string;
  subjectId?: string;
  roomId?: string;
  from?: Date;
  to?: Date;
};

/** The door events a room filter finds by their lock when no room was written on them (a remote or manual opening). */
const DOOR_ACTIONS = ['door.opened', 'door.unlocked_remotely'];

/** The rows `f` matches; `roomDoors` are the locks that are doors of `f.roomId` now, for door events naming no room. */
function where(tenantId: string, f: AuditFilters, roomDoors: string[] = []): Prisma.AuditEventWhereInput {
  const room: Prisma.AuditEventWhereInput[] = f.roomId
    ? [
        {
          OR: [
            { roomId: f.roomId },
            ...(roomDoors.length > 0
              ? [{ roomId: null, subjectType: 'lock', subjectId: { in: roomDoors }, action: { in: DOOR_ACTIONS } }]
              : []),
          ],
        },
      ]
    : [];
  return {
    tenantId,
    ...(f.action ? { action: f.action } : {}),
    ...(f.actions ? { action: { in: f.actions } } : {}),
    ...(f.actorType ? { actorType: f.actorType } : {}),
    ...(f.actor ? { OR: [{ actorLabel: { contains: f.actor, mode: 'insensitive' } }, { actorId: f.actor }] } : {}),
    ...(f.subjectId ? { subjectId: f.subjectId } : {}),
    ...(room.length > 0 ? { AND: room } : {}),
    ...(f.from || f.to ? { occurredAt: { ...(f.from ? { gte: f.from } : {}), ...(f.to ? { lt: f.to } : {}) } } : {}),
  };
}

/** An audit_events row as the API and the pages show it. */
export function toAuditEventView(e: Prisma.AuditEventGetPayload<object>): AuditEventView {
  return {
    id: e.id,
    occurredAt: e.occurredAt.toISOString(),
    actor: { type: e.actorType, id: e.actorId, label: e.actorLabel },
    action: e.action,
    subject: { type: e.subjectType, id: e.subjectId },
    roomId: e.roomId,
    reason: e.reason,
    metadata: (e.metadata ?? {}) as Record<string, unknown>,
  };
}

type PageInput = AuditFilters & { tenantId: string; limit: number; cursor?: string };

/** A tenant's audit events matching the filters, newest first, one keyset page at a time. */
export function listAuditEvents(input: PageInput): Promise<{ data: AuditEventView[]; nextCursor: string | null }> {
  return withTenant({ tenantId: input.tenantId }, (tx) => auditEventsPage(tx, input));
}

/** `listAuditEvents` in a transaction the caller holds (scoped to `input.tenantId`). */
export async function auditEventsPage(
  tx: Tx,
  input: PageInput,
): Promise<{ data: AuditEventView[]; nextCursor: string | null }> {
  const { tenantId } = input;
  const before = input.cursor ? decodeCursor(input.cursor) : null;
  // A door opened remotely or by hand names no room: the room filter finds it by the room's doors.
  const roomDoors = input.roomId
    ? (await tx.roomLock.findMany({ where: { tenantId, roomId: input.roomId }, select: { lockId: true } })).map(
        (door) => door.lockId,
      )
    : [];
  const rows = await tx.auditEvent.findMany({
    where: {
      AND: [
        where(tenantId, input, roomDoors),
        // (occurred_at, id) < the cursor's. The first bound alone starts the index scan at the
        // cursor: the OR alone was a filter, so a deep page walked every newer row first.
        ...(before
          ? [
              { occurredAt: { lte: before.at } },
              { OR: [{ occurredAt: { lt: before.at } }, { occurredAt: before.at, id: { lt: before.id } }] },
            ]
          : []),
      ],
    },
    orderBy: [{ occurredAt: 'desc' }, { id: 'desc' }],
    take: input.limit + 1,
  });
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  return {
    data: page.map(toAuditEventView),
    nextCursor: rows.length > input.limit && last ? encodeCursor(last.occurredAt, last.id) : null,
  };
}

const CSV_COLUMNS = [
  'occurred_at',
  'action',
  'actor_type',
  'actor_id',
  'actor_label',
  'subject_type',
  'subject_id',
  'room_id',
  'reason',
  'metadata',
] as const;

// A spreadsheet reads a formula after leading white space (any: tabs, line breaks, ideographic and
// no-break spaces), and Japanese input methods type the full-width signs ＝ ＋ － ＠, which
// spreadsheets take as = + - @.
const FORMULA_START = /^[\s=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/u;

/**
 * One CSV field: quoted, and a leading formula sign (= + - @, their full-width forms) or white space
 * defused with an apostrophe, so a spreadsheet never runs it as a formula.
 */
export function csvField(value: unknown): string {
  let text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

/** The audit events matching the filters as CSV, newest first, produced page by page (for a streamed download). */
export async function* auditCsv(input: AuditFilters & { tenantId: string }): AsyncGenerator<string> {
  yield `${CSV_COLUMNS.join(',')}\n`;
  let cursor: string | undefined;
  do {
    const page = await listAuditEvents({ ...input, limit: 500, cursor });
    yield page.data
      .map(
        (e) =>
          [
            e.occurredAt,
            e.action,
            e.actor.type,
            e.actor.id,
            e.actor.label,
            e.subject.type,
            e.subject.id,
            e.roomId,
            e.reason,
            e.metadata,
          ]
            .map(csvField)
            .join(',') + '\n',
      )
      .join('');
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}
