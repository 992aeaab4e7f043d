/**
 * Arranges the desk-day and hourly specs' data in the running e2e server's database, in one
 * process (like e2e/make-tenant.ts): `stays` books an arrival, a guest in house and a departure for
 * today in the tenant's facility; `hourly` adds a facility rented by the hour with one room rated
 * per hour. Prints one JSON object.
 */
import { localSecrets } from '../tooling/config/local-state';
import { openDatabase } from '../tooling/database/database';

export type DeskDayInput =
  | { op: 'stays'; tenantId: string; roomIds: string[]; timeZone: string; names: [string, string, string] }
  | { op: 'hourly'; tenantId: string };

async function main(): Promise<void> {
  const input = JSON.parse(process.argv[2] ?? '{}') as DeskDayInput;
  const database = await openDatabase();
  process.env.APP_DATABASE_URL = database.appUrl;
  // Guest links are derived from the secret the server uses in this folder (as the CLI does).
  process.env.NEXTAUTH_SECRET ||= localSecrets().nextauthSecret;
  const { asService } = await import('../lib/db/tx');
  const { disconnectDb } = await import('../lib/db/client');
  try {
    if (input.op === 'hourly') {
      const made = await asService({ tenantId: input.tenantId }, async (tx) => {
        const facility = await tx.facility.create({
          data: {
            tenantId: input.tenantId,
            name: 'Meeting rooms',
            timeZone: 'Asia/Tokyo',
            bookingUnit: 'hour',
            opensAt: new Date('1970-01-01T09:00:00Z'),
            closesAt: new Date('1970-01-01T18:00:00Z'),
          },
          select: { id: true },
        });
        const room = await tx.room.create({
          data: {
            tenantId: input.tenantId,
            facilityId: facility.id,
            label: 'Meeting A',
            rateCents: 3000,
            currency: 'jpy',
            rateUnit: 'hour',
            rateName: 'Meeting room (hourly)',
          },
          select: { id: true },
        });
        return { facilityId: facility.id, roomId: room.id };
      });
      process.stdout.write(`${JSON.stringify(made)}\n`);
      return;
    }
    const { holdBookingGroup } = await import('../lib/bookings/create-booking-group');
    const { completeCheckIn } = await import('../lib/stays/complete-check-in');
    const { zonedDayBounds } = await import('../lib/time/zoned-day');
    const actor = { type: 'system' as const, id: null, label: 'e2e' };
    const { start, end } = zonedDayBounds(new Date(), input.timeZone);
    const hour = 3_600_000;
    const book = async (roomId: string, name: string, startsAt: Date, endsAt: Date) =>
      (
        await holdBookingGroup({
          tenantId: input.tenantId,
          actor,
          guest: { name },
          source: 'api',
          reservations: [{ roomId, startsAt, endsAt }],
        })
      ).reservations[0]!.id;
    const [arrivalRoom, inHouseRoom, departureRoom] = input.roomIds;
    const [arrivalName, inHouseName, departureName] = input.names;
    // Due since just after midnight (still an arrival until checked in), until tomorrow morning.
    const arrival = await book(
      arrivalRoom!,
      arrivalName,
      new Date(start.getTime() + 60_000),
      new Date(end.getTime() + 10 * hour),
    );
    // Arrived yesterday afternoon: one leaves tomorrow, one before today ends.
    const inHouse = await book(
      inHouseRoom!,
      inHouseName,
      new Date(start.getTime() - 9 * hour),
      new Date(end.getTime() + 10 * hour),
    );
    const departure = await book(
      departureRoom!,
      departureName,
      new Date(start.getTime() - 9 * hour),
      new Date(end.getTime() - 60_000),
    );
    for (const reservationId of [inHouse, departure]) {
      await completeCheckIn({ tenantId: input.tenantId, reservationId, actor });
    }
    process.stdout.write(`${JSON.stringify({ arrival, inHouse, departure })}\n`);
  } finally {
    await disconnectDb();
    await database.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`desk-day-data: ${(error as Error).message ?? String(error)}\n`);
    process.exit(1);
  },
);
