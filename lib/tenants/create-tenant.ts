import { assignInstallDevice, holdLockDevice } from '../locks/locks';
import { lockAccountFor, tenantProviderName } from '../locks/tenant-provider';
import { asService } from '../db/tx';
import { hashPassword } from '../auth/password';
import type { Role } from '../auth/permissions';
import type { Actor } from '../audit/actor';
import type { FacilitySettings } from '../facilities/facility-input';
import { facilityColumns } from '../facilities/save-facility';
import type { RoomSettings } from '../rooms/room-input';
import { AppError } from '../errors';
import { writeAuditEvent } from '../audit/write-audit-event';

const SYSTEM = { type: 'system' as const, id: null, label: 'system' };

/** Creates a tenant (optionally bound to a Stripe Connect account). */
export async function createTenant(input: { name: string; stripeAccountId?: string | null }): Promise<{ id: string }> {
  return asService((tx) =>
    tx.tenant.create({
      data: { name: input.name, stripeAccountId: input.stripeAccountId ?? null },
      select: { id: true },
    }),
  );
}

/**
 * Creates a facility of a tenant, with its IANA time zone, how long before a stay its pre-issued
 * keys start working (default 120 minutes) and how long before a stay the desk may check its guest
 * in (default 0: not before the stay starts, unless the desk insists and the room is free). The
 * manager's form gives every other setting too; with an `actor` the creation is audited
 * (`facility.created`). The database's checks have the last word.
 */
export async function createFacility(
  input: { tenantId: string; name: string; timeZone: string; actor?: Actor } & Partial<
    Omit<FacilitySettings, 'name' | 'timeZone'>
  >,
): Promise<{ id: string }> {
  const { tenantId, actor, name, timeZone, ...settings } = input;
  return asService({ tenantId }, async (tx) => {
    const facility = await tx.facility.create({
      data: { tenantId, name, timeZone, ...facilityColumns(withoutUndefined(settings)) },
      select: { id: true },
    });
    if (actor)
      await writeAuditEvent(tx, {
        tenantId,
        actor,
        action: 'facility.created',
        subject: { type: 'facility', id: facility.id },
        metadata: { name, timeZone, bookingUnit: settings.bookingUnit ?? 'night' },
      });
    return facility;
  });
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/**
 * Creates a room in one of the tenant's facilities (the composite foreign key refuses another
 * tenant's facility). `lockDeviceRef` names a device of the tenant's lock provider: it becomes the
 * tenant's lock (once per device; on the install's account an assignment, as `lock-assign`) and the
 * room's own door; a device another tenant holds is refused (`conflict`) and nothing is made. The
 * manager's form gives its rate too; with an `actor` the creation is audited (`room.created`).
 */
export async function createRoom(
  input: {
    tenantId: string;
    facilityId: string;
    label: string;
    lockDeviceRef?: string | null;
    actor?: Actor;
  } & Partial<Omit<RoomSettings, 'label'>>,
): Promise<{ id: string }> {
  const { tenantId, facilityId, label, lockDeviceRef, actor, ...rate } = input;
  const provider = lockDeviceRef ? await tenantProviderName(tenantId) : null;
  const account = provider ? await lockAccountFor(tenantId, provider) : null;
  if (provider && !account)
    throw new AppError('unavailable', `The lock provider is not set up (${provider}_not_configured).`, {
      providerCode: `${provider}_not_configured`,
    });
  return asService({ tenantId }, async (tx) => {
    const facilities = await tx.facility.count({ where: { tenantId, id: facilityId } });
    if (facilities !== 1) throw new AppError('not_found', 'No such facility.');
    const room = await tx.room.create({
      data: { tenantId, facilityId, label, ...withoutUndefined(rate) },
      select: { id: true, rateCents: true, currency: true, rateUnit: true, rateName: true },
    });
    if (lockDeviceRef && provider && account) {
      // The operator's word: the device becomes this tenant's (refused when another tenant holds it).
      const lock =
        provider === 'simulator'
          ? await assignInstallDevice(tx, { tenantId, deviceId: lockDeviceRef, actor: actor ?? SYSTEM })
          : await holdLockDevice(tx, { tenantId, provider, account, deviceId: lockDeviceRef });
      await tx.roomLock.create({ data: { tenantId, roomId: room.id, lockId: lock.id } });
    }
    if (actor)
      await writeAuditEvent(tx, {
        tenantId,
        actor,
        action: 'room.created',
        subject: { type: 'room', id: room.id },
        roomId: room.id,
        metadata: {
          label,
          facilityId,
          rateCents: room.rateCents,
          currency: room.currency,
          rateUnit: room.rateUnit,
          rateName: room.rateName,
        },
      });
    return { id: room.id };
  });
}

/**
 * Creates an account with a password its owner chose (the operator's `cli user-create`, the demo
 * seed, tests) and a membership in a tenant. An email that already has an account on the install is
 * `conflict`, said as such: the account keeps its password and its tenants, and joins another tenant
 * only by accepting an invitation (lib/staff/invitations.ts). With an `actor`, audited `member.created`.
 */
export async function createStaffUser(input: {
  tenantId: string;
  email: string;
  password: string;
  role: Role;
  name?: string;
  actor?: Actor;
}): Promise<{ id: string }> {
  const { tenantId, role, actor } = input;
  const email = input.email.trim().toLowerCase();
  const passwordHash = await hashPassword(input.password);
  return asService(async (tx) => {
    const existing = await tx.user.count({ where: { email } });
    if (existing > 0)
      throw new AppError(
        'conflict',
        'This email already has an account: it keeps its password; invite it from the tenant’s staff page to add it to another tenant.',
      );
    const user = await tx.user.create({ data: { email, name: input.name ?? '', passwordHash }, select: { id: true } });
    await tx.membership.create({ data: { tenantId, userId: user.id, role } });
    if (actor)
      await writeAuditEvent(tx, {
        tenantId,
        actor,
        action: 'member.created',
        subject: { type: 'user', id: user.id },
        metadata: { email, name: input.name ?? '', role },
      });
    return { id: user.id };
  });
}
