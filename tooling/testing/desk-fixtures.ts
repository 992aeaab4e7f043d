import { randomBytes } from 'node:crypto';
import type { ReservationStatus } from '../../lib/db/generated/enums';
import { adminClient, TEST_ACTOR } from './fixtures';

/**
 * A tenant with one facility per entry of `facilities` (its zone, its rooms' labels, and for an
 * hourly one its opening hours and per-hour rate), for the desk's day, grid and search tests.
 */
export async function createDeskTenant(
  facilities: {
    name: string;
    timeZone: string;
    rooms: string[];
    hourly?: { opensAt: string; closesAt: string; rateCents: number; rateName: string };
  }[],
) {
  const { createFacility } = await import('../../lib/facilities/create-facility');
  const { createRoom } = await import('../../lib/rooms/create-room');
  const { createTenant } = await import('../../lib/staff/create-tenant');
  const tenant = await createTenant({ name: `Desk ${randomBytes(3).toString('hex')}` });
  const admin = await adminClient();
  const made: { facilityId: string; rooms: Record<string, string> }[] = [];
  try {
    for (const f of facilities) {
      const facility = await createFacility({ tenantId: tenant.id, name: f.name, timeZone: f.timeZone });
      const rooms: Record<string, string> = {};
      for (const label of f.rooms)
        rooms[label] = (await createRoom({ tenantId: tenant.id, facilityId: facility.id, label })).id;
      if (f.hourly) {
        await admin.query(`update facilities set booking_unit = 'hour', opens_at = $2, closes_at = $3 where id = $1`, [
          facility.id,
          f.hourly.opensAt,
          f.hourly.closesAt,
        ]);
        await admin.query(
          `update rooms set rate_unit = 'hour', rate_cents = $2, rate_name = $3 where facility_id = $1`,
          [facility.id, f.hourly.rateCents, f.hourly.rateName],
        );
      }
      made.push({ facilityId: facility.id, rooms });
    }
  } finally {
    await admin.end();
  }
  return { tenantId: tenant.id, facilities: made };
}

/** A reservation of `roomId` for `[startsAt, endsAt)` (any instants: no desk rules), then put in `status`. */
export async function createStay(input: {
  tenantId: string;
  roomId: string;
  startsAt: Date;
  endsAt: Date;
  guestName: string;
  status?: ReservationStatus;
  externalRef?: string;
}): Promise<string> {
  const { holdBookingGroup } = await import('../../lib/bookings/create-booking-group');
  const group = await holdBookingGroup({
    tenantId: input.tenantId,
    actor: TEST_ACTOR,
    guest: { name: input.guestName },
    source: 'api',
    preIssueKeys: false,
    externalRef: input.externalRef ?? null,
    reservations: [{ roomId: input.roomId, startsAt: input.startsAt, endsAt: input.endsAt }],
  });
  const id = group.reservations[0]!.id;
  if (input.status && input.status !== 'confirmed') {
    const admin = await adminClient();
    await admin.query(`update reservations set status = $2 where id = $1`, [id, input.status]);
    await admin.end();
  }
  return id;
}
