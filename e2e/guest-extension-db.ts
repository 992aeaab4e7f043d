/**
 * The guest extension's end-to-end tests' reach into the running e2e server's database, in one process like
 * e2e/make-tenant.ts (`tsx e2e/guest-extension-db.ts '<json input>'`, UNLOCKOS_DATA_DIR=.data/e2e):
 * - `stay`: a confirmed stay of a room (booked as the API books it: a pre-issued key, a guest link, the key-link
 *   mail to `email` when given) from the facility's check-in time of `checkIn` to its check-out time of
 *   `checkOut`; its id and link path;
 * - `state`: the stay's end and its live keys (id, PIN, end).
 * Prints one JSON object.
 */
import { localSecrets } from '../tooling/config/local-state';
import { openDatabase } from '../tooling/database/database';

export type GuestExtensionDbInput =
  | { op: 'stay'; tenantId: string; roomId: string; checkIn: string; checkOut: string; email?: string }
  | { op: 'state'; tenantId: string; reservationId: string };

async function main(): Promise<void> {
  const input = JSON.parse(process.argv[2] ?? '{}') as GuestExtensionDbInput;
  const database = await openDatabase();
  process.env.APP_DATABASE_URL = database.appUrl;
  // Guest links are derived from the same secret the running server uses (as the CLI does).
  process.env.NEXTAUTH_SECRET ||= localSecrets().nextauthSecret;
  const { createBookingGroup } = await import('../lib/bookings/create-booking-group');
  const { zonedDateTime } = await import('../lib/bookings/stay-window');
  const { runStatements, sqlLiteral, statement } = await import('../lib/db/tx');
  const { disconnectDb } = await import('../lib/db/client');
  try {
    if (input.op === 'stay') {
      const group = await createBookingGroup({
        tenantId: input.tenantId,
        actor: { type: 'system', id: null, label: 'e2e' },
        guest: { name: 'Yui Nakamura', email: input.email ?? `yui-${Date.now().toString(36)}@example.com` },
        source: 'api',
        reservations: [
          {
            roomId: input.roomId,
            startsAt: zonedDateTime(input.checkIn, '15:00', 'Asia/Tokyo'),
            endsAt: zonedDateTime(input.checkOut, '10:00', 'Asia/Tokyo'),
          },
        ],
      });
      const reservation = group.reservations[0]!;
      process.stdout.write(
        `${JSON.stringify({ reservationId: reservation.id, path: `/k/${reservation.guestLinkToken}` })}\n`,
      );
      return;
    }
    const scope = { role: 'app_service' as const, tenantId: input.tenantId };
    const id = sqlLiteral(input.reservationId, 'uuid');
    const [stays, keys] = await runStatements(scope, [
      statement<{ endsAt: Date }>(`select ends_at as "endsAt" from reservations where id = ${id}`),
      statement<{ id: string; pin: string; expiresAt: Date }>(
        `select id, pin, expires_at as "expiresAt" from access_keys
          where reservation_id = ${id} and status in ('pre_issued', 'active') order by created_at`,
      ),
    ]);
    process.stdout.write(`${JSON.stringify({ endsAt: stays[0]?.endsAt, keys })}\n`);
  } finally {
    await disconnectDb();
    await database.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`guest-extension-db: ${(error as Error).message ?? String(error)}\n`);
    process.exit(1);
  },
);
