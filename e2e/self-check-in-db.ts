/**
 * The self check-in end-to-end test's reach into the running e2e server's database, in one process like
 * e2e/make-tenant.ts (`tsx e2e/self-check-in-db.ts '<json input>'`, UNLOCKOS_DATA_DIR=.data/e2e):
 * - `facility`: sets a test tenant's facility's check-in mode and how many hours before a stay it opens,
 *   the way a manager's settings would;
 * - `book`: books a room from `startsInHours` for `hours` (with its guest link, as the desk would) and
 *   prints the link's path.
 * Prints one JSON object.
 */
import pg from 'pg';
import { localSecrets } from '../tooling/config/local-state';
import { openDatabase } from '../tooling/database/database';

export type SelfCheckInDbInput =
  | { op: 'facility'; tenantId: string; facilityId: string; mode: 'desk' | 'self'; opensHours: number }
  | { op: 'book'; tenantId: string; roomId: string; startsInHours: number; hours: number; guestName: string };

async function main(): Promise<void> {
  const input = JSON.parse(process.argv[2] ?? '{}') as SelfCheckInDbInput;
  const database = await openDatabase();
  try {
    if (input.op === 'facility') {
      const client = new pg.Client({ connectionString: database.adminUrl });
      await client.connect();
      try {
        await client.query(
          `update facilities set check_in_mode = $3::check_in_mode, self_check_in_opens_hours = $4,
                  payment_mode = 'at_property'
            where tenant_id = $1 and id = $2`,
          [input.tenantId, input.facilityId, input.mode, input.opensHours],
        );
      } finally {
        await client.end();
      }
      process.stdout.write(`${JSON.stringify({ ok: true })}\n`);
      return;
    }
    process.env.APP_DATABASE_URL = database.appUrl;
    // The guest link's token is derived under the server's secret, found as the CLI finds it (scripts/cli.ts).
    process.env.NEXTAUTH_SECRET ||= localSecrets().nextauthSecret;
    const { bookRoom } = await import('../tooling/testing/fixtures');
    const { disconnectDb } = await import('../lib/db/client');
    try {
      const { token } = await bookRoom(input);
      process.stdout.write(`${JSON.stringify({ path: `/k/${token}` })}\n`);
    } finally {
      await disconnectDb();
    }
  } finally {
    await database.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`self-check-in-db: ${(error as Error).message ?? String(error)}\n`);
    process.exit(1);
  },
);
