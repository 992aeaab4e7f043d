import type { Actor } from '../audit/actor';
import type { StaffCodePurpose } from '../db/generated/enums';
import { asService, runInTransaction, sqlLiteral, statement, withTenant } from '../db/tx';
import { AppError } from '../errors';
import { toKeyView, type KeyView } from './key-view';

export const STAFF_CODE_PURPOSES = [
  'housekeeping',
  'maintenance',
  'inspection',
] as const satisfies readonly StaffCodePurpose[];

/** A staff code: a key of kind `staff`, with who it is for and who made it. */
export type StaffCodeView = KeyView & {
  roomId: string;
  label: string;
  purpose: StaffCodePurpose;
  userId: string | null;
  issuedBy: string | null;
};

type StaffKeyRow = Parameters<typeof toKeyView>[0] & {
  roomId: string;
  staffLabel: string | null;
  staffPurpose: StaffCodePurpose | null;
  staffUserId: string | null;
  issuedByLabel: string | null;
};

function toStaffCodeView(row: StaffKeyRow): StaffCodeView {
  return {
    ...toKeyView(row),
    roomId: row.roomId,
    label: row.staffLabel ?? '',
    purpose: row.staffPurpose ?? 'maintenance',
    userId: row.staffUserId,
    issuedBy: row.issuedByLabel,
  };
}

const STAFF_SELECT = {
  id: true,
  kind: true,
  status: true,
  pin: true,
  validFrom: true,
  expiresAt: true,
  vendorSync: true,
  revokedReason: true,
  roomId: true,
  staffLabel: true,
  staffPurpose: true,
  staffUserId: true,
  issuedByLabel: true,
} as const;

/**
 * Creates a time-bound code for staff on a room (SQL `create_staff_code`), in one transaction:
 * a key of kind `staff` with a PIN that is live on none of the room's doors (a guest's included),
 * its program job in the outbox, audited `staff_code.created`. Another tenant's room or user is
 * `not_found`; an archived room is `room_unavailable`. It ends like any key (`revokeKey`) or at its end.
 */
export async function createStaffCode(input: {
  tenantId: string;
  roomId: string;
  label: string;
  purpose: StaffCodePurpose;
  startsAt: Date;
  endsAt: Date;
  userId?: string | null;
  actor: Actor;
}): Promise<StaffCodeView> {
  const { tenantId, actor } = input;
  return asService({ tenantId }, async (tx) => {
    const [created] = await runInTransaction(tx, [
      statement<{ id: string }>(`select id from create_staff_code(${sqlLiteral(tenantId, 'uuid')},
      ${sqlLiteral(input.roomId, 'uuid')}, ${sqlLiteral(input.label, 'text')},
      ${sqlLiteral(input.purpose, 'staff_code_purpose')}, ${sqlLiteral(input.startsAt, 'timestamptz')},
      ${sqlLiteral(input.endsAt, 'timestamptz')}, ${sqlLiteral(input.userId ?? null, 'uuid')},
      ${sqlLiteral(actor.type, 'actor_type')}, ${sqlLiteral(actor.id, 'text')}, ${sqlLiteral(actor.label, 'text')})`),
    ]);
    const rows = await tx.accessKey.findMany({ where: { tenantId, id: created[0]!.id }, select: STAFF_SELECT });
    return toStaffCodeView(rows[0]!);
  });
}

/**
 * The staff codes of one room of the tenant, newest first (live and ended; an ended code's PIN is
 * never shown). Another tenant's room is `not_found`.
 */
export async function listStaffCodes({
  tenantId,
  roomId,
  userId,
  limit = 100,
}: {
  tenantId: string;
  roomId: string;
  userId?: string | null;
  limit?: number;
}): Promise<StaffCodeView[]> {
  return withTenant({ tenantId, userId }, async (tx) => {
    const rooms = await tx.room.findMany({ where: { tenantId, id: roomId }, select: { id: true } });
    if (rooms.length !== 1) throw new AppError('not_found', 'No such room.');
    const rows = await tx.accessKey.findMany({
      where: { tenantId, roomId, kind: 'staff' },
      select: STAFF_SELECT,
      orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
      take: limit,
    });
    return rows.map(toStaffCodeView);
  });
}

/** A room of the tenant as the staff-codes page shows it (label, facility zone); null for any other id. */
export async function staffCodeRoom({
  tenantId,
  userId,
  roomId,
}: {
  tenantId: string;
  userId?: string | null;
  roomId: string;
}): Promise<{ id: string; label: string; archived: boolean; timeZone: string } | null> {
  const rows = await withTenant({ tenantId, userId }, (tx) =>
    tx.room.findMany({
      where: { tenantId, id: roomId },
      select: { id: true, label: true, archivedAt: true, facility: { select: { timeZone: true } } },
    }),
  );
  if (rows.length !== 1) return null;
  const room = rows[0]!;
  return { id: room.id, label: room.label, archived: room.archivedAt !== null, timeZone: room.facility.timeZone };
}
