/**
 * The booking site's end-to-end tests' reach into the running e2e server's database, in one
 * process like e2e/make-tenant.ts (`tsx e2e/booking-site-db.ts '<json input>'`, UNLOCKOS_DATA_DIR=.data/e2e):
 * - `publish`: puts a test tenant's facility on the booking site at `slug` with one room type
 *   holding all its rooms, the way a manager's settings would;
 * - `mail`: the mail the local catcher caught for an address, newest first (the code mail, the key link).
 * Prints one JSON object.
 */
import pg from 'pg';
import { openDatabase } from '../tooling/database/database';

export type BookingSiteDbInput =
  | {
      op: 'publish';
      tenantId: string;
      facilityId: string;
      roomIds: string[];
      slug: string;
      payment: 'none' | 'online' | 'at_property';
      unit?: 'night' | 'hour';
      weekdayCents?: number;
      termsText?: string;
      privacyText?: string;
    }
  | { op: 'mail'; email: string };

async function main(): Promise<void> {
  const input = JSON.parse(process.argv[2] ?? '{}') as BookingSiteDbInput;
  const database = await openDatabase();
  const client = new pg.Client({ connectionString: database.adminUrl });
  await client.connect();
  try {
    if (input.op === 'mail') {
      const { rows } = await client.query<{ subject: string; text: string; receivedAt: Date }>(
        `select subject, text_body as text, received_at as "receivedAt" from caught_mail
          where rcpt_to ilike '%' || $1 || '%' order by received_at desc, id limit 20`,
        [input.email],
      );
      process.stdout.write(`${JSON.stringify({ mails: rows })}\n`);
      return;
    }
    await client.query('begin');
    const hourly = input.unit === 'hour';
    await client.query(
      `update facilities set slug = $3, published_at = now(), payment_mode = $4::payment_mode, currency = 'jpy',
         booking_unit = $5::booking_unit,
         opens_at = case when $5 = 'hour' then '09:00'::time else opens_at end,
         closes_at = case when $5 = 'hour' then '21:00'::time else closes_at end,
         terms_text = $6, privacy_text = $7
       where tenant_id = $1 and id = $2`,
      [
        input.tenantId,
        input.facilityId,
        input.slug,
        input.payment,
        hourly ? 'hour' : 'night',
        input.termsText ?? 'Guests leave the room as they found it.',
        input.privacyText ?? 'We keep your name and email for this booking only.',
      ],
    );
    const { rows } = await client.query<{ id: string }>(
      `insert into room_types (tenant_id, facility_id, name, description, capacity, weekday_cents, weekend_cents)
       values ($1, $2, 'Standard', 'A quiet room with a double bed.', 2, $3, $3) returning id`,
      [input.tenantId, input.facilityId, input.weekdayCents ?? 12000],
    );
    const roomTypeId = rows[0]!.id;
    await client.query(`update rooms set room_type_id = $3 where tenant_id = $1 and id = any($2::uuid[])`, [
      input.tenantId,
      input.roomIds,
      roomTypeId,
    ]);
    await client.query('commit');
    process.stdout.write(`${JSON.stringify({ roomTypeId })}\n`);
  } finally {
    await client.end();
    await database.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`booking-site-db: ${(error as Error).message ?? String(error)}\n`);
    process.exit(1);
  },
);
