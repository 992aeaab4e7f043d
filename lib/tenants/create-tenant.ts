import { ensureLock } from '../locks/locks';
import { tenantProviderName } from '../locks/tenant-provider';
import { asService } from '../db/tx';
import { hashPassword } from '../auth/password';
import type { Role } from '../auth/permissions';

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
 * in (default 0: not before the stay starts, unless the desk insists and the room is free).
 */
export async function createFacility(input: {
  tenantId: string;
  name: string;
  timeZone: string;
  keyLeadMinutes?: number;
  earlyCheckInMinutes?: number;
}): Promise<{ id: string }> {
  return asService({ tenantId: input.tenantId }, (tx) =>
    tx.facility.create({
      data: {
        tenantId: input.tenantId,
        name: input.name,
        timeZone: input.timeZone,
        ...(input.keyLeadMinutes === undefined ? {} : { keyLeadMinutes: input.keyLeadMinutes }),
        ...(input.earlyCheckInMinutes === undefined ? {} : { earlyCheckInMinutes: input.earlyCheckInMinutes }),
      },
      select: { id: true },
    }),
  );
}

/**
 * Creates a room in one of the tenant's facilities (the composite foreign key refuses another
 * tenant's facility). `lockDeviceRef` names a device of the tenant's lock provider: it becomes a
 * lock (once per device) and the room's own door.
 */
export async function createRoom(input: {
  tenantId: string;
  facilityId: string;
  label: string;
  lockDeviceRef?: string | null;
}): Promise<{ id: string }> {
  const provider = input.lockDeviceRef ? await tenantProviderName(input.tenantId) : null;
  return asService({ tenantId: input.tenantId }, async (tx) => {
    const room = await tx.room.create({
      data: { tenantId: input.tenantId, facilityId: input.facilityId, label: input.label },
      select: { id: true },
    });
    if (input.lockDeviceRef && provider) {
      const lock = await ensureLock(tx, { tenantId: input.tenantId, provider, deviceId: input.lockDeviceRef });
      await tx.roomLock.create({ data: { tenantId: input.tenantId, roomId: room.id, lockId: lock.id } });
    }
    return room;
  });
}

/**
 * Creates a staff user with a membership in a tenant; an existing user (same email) gains the
 * membership instead, keeping their password.
 */
export async function createStaffUser(input: {
  tenantId: string;
  email: string;
  password: string;
  role: Role;
  name?: string;
}): Promise<{ id: string }> {
  const email = input.email.trim().toLowerCase();
  const passwordHash = await hashPassword(input.password);
  return asService(async (tx) => {
    const user = await tx.user.upsert({
      where: { email },
      create: { email, name: input.name ?? '', passwordHash },
      update: {},
      select: { id: true },
    });
    await tx.membership.upsert({
      where: { tenantId_userId: { tenantId: input.tenantId, userId: user.id } },
      create: { tenantId: input.tenantId, userId: user.id, role: input.role },
      update: { role: input.role },
    });
    return user;
  });
}
