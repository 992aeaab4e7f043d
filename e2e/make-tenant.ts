/**
 * Makes one end-to-end test's own tenant in the running e2e server's database, in one process: a
 * facility (in UTC unless told otherwise), `rooms` rooms with their own lock devices, a front-desk user and a manager.
 * Prints it as one JSON object. Run by e2e/fixtures.ts (`tsx e2e/make-tenant.ts '<json input>'`)
 * with UNLOCKOS_DATA_DIR=.data/e2e, the way the CLI reaches that database; the database is the
 * server's, already migrated, so this neither migrates nor seeds.
 */
import { openDatabase } from '../tooling/database/database';

/** `facility: false`: a brand-new tenant with no facility and no rooms (the manager sets it up). */
export type TenantInput = {
  name: string;
  rooms: number;
  tag: string;
  timeZone?: string;
  facility?: boolean;
  /** The front desk's password is a one-time one (72 h), as a manager's were before invitations. */
  oneTimeDesk?: boolean;
};
export type StaffMember = { id: string; email: string; password: string };
export type MadeTenant = {
  id: string;
  name: string;
  facilityId: string;
  rooms: { id: string; label: string; lockDevice: string }[];
  desk: StaffMember;
  manager: StaffMember;
};

async function main(): Promise<void> {
  const input = JSON.parse(process.argv[2] ?? '{}') as TenantInput;
  const database = await openDatabase();
  process.env.APP_DATABASE_URL = database.appUrl;
  const { createFacility } = await import('../lib/facilities/create-facility');
  const { createStaffUser } = await import('../lib/staff/create-staff-user');
  const { createTenant } = await import('../lib/staff/create-tenant');
  const { createRoomWithDevice } = await import('../tooling/testing/fixtures');
  const { disconnectDb } = await import('../lib/db/client');
  try {
    const name = `${input.name} ${input.tag}`;
    const { id } = await createTenant({ name });
    const facility =
      input.facility === false
        ? { id: '' }
        : await createFacility({ tenantId: id, name: 'Main', timeZone: input.timeZone ?? 'UTC' });
    const rooms = [];
    // Each room's own door is a device of the simulator, assigned to the tenant as the operator's
    // `room-create --lock-device` does (the same domain function): a random TTLock lock id (an Int),
    // drawn again in the rare case another tenant holds it already.
    for (let i = 0; i < (input.facility === false ? 0 : input.rooms); i++) {
      const label = String(101 + i);
      const room = await createRoomWithDevice({ tenantId: id, facilityId: facility.id, label });
      rooms.push({ id: room.id, label, lockDevice: room.lockDevice! });
    }
    const staff = async (role: 'front_desk' | 'manager', who: string): Promise<StaffMember> => {
      const email = `${who}-${input.tag}@example.com`;
      const password = `pw-${input.tag}-${who}`;
      const user = await createStaffUser({ tenantId: id, email, password, role, name: `${who} ${input.tag}` });
      return { id: user.id, email, password };
    };
    const desk = await staff('front_desk', 'desk');
    if (input.oneTimeDesk) {
      const { asService } = await import('../lib/db/tx');
      await asService((tx) =>
        tx.user.update({
          where: { id: desk.id },
          data: { passwordOneTime: true, passwordExpiresAt: new Date(Date.now() + 72 * 3_600_000) },
        }),
      );
    }
    const made: MadeTenant = {
      id,
      name,
      facilityId: facility.id,
      rooms,
      desk,
      manager: await staff('manager', 'manager'),
    };
    process.stdout.write(`${JSON.stringify(made)}\n`);
  } finally {
    await disconnectDb();
    await database.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`make-tenant: ${(error as Error).message ?? String(error)}\n`);
    process.exit(1);
  },
);
