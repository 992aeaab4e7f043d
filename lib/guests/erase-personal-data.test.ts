import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookGroup } from '../bookings/book-group';
import {
  invitee,
  processAll,
  reservationsOf,
  sendCal,
  sendCalendly,
  tenantWithSources,
} from '../../tooling/testing/booking-webhooks';
import { adminClient, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { deliverStripe } from '../../tooling/testing/stripe-events';
import { replayWebhookEvents } from '../webhooks/replay';
import { deleteGuest } from './delete-guest';

// Deleting a guest erases their personal data everywhere it lives — the guest row, and the copies
// inside stored webhook payloads (Calendly's invitee, Cal.com's attendees, Stripe's billing
// details) — and keeps reservations, keys and the audit trail.

const SECRET = 'whsec_erase';
let admin: pg.Client;
let n = 0;
beforeAll(async () => {
  admin = await adminClient();
  process.env.STRIPE_WEBHOOK_SECRET = SECRET;
});
afterAll(async () => {
  delete process.env.STRIPE_WEBHOOK_SECRET;
  await admin.end();
});

/** Every row of the tenant, in every table, whose text mentions one of `needles` (case-insensitive). */
async function mentions(tenantId: string, needles: string[]): Promise<string[]> {
  const { rows: tables } = await admin.query<{ table_name: string }>(`
    select c.relname as table_name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind = 'r'
       and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'tenant_id' and not a.attisdropped)`);
  const found: string[] = [];
  for (const { table_name } of tables) {
    const ident = admin.escapeIdentifier(table_name);
    for (const needle of needles) {
      const { rows } = await admin.query(
        `select count(*)::int as n from ${ident} t where tenant_id = $1 and row_to_json(t)::text ilike '%' || $2 || '%'`,
        [tenantId, needle],
      );
      if (rows[0].n > 0) found.push(`${table_name}: ${needle}`);
    }
  }
  return found;
}

async function counts(tenantId: string) {
  const { rows } = await admin.query(
    `select (select count(*)::int from reservations where tenant_id = $1) as reservations, (select count(*)::int from access_keys where tenant_id = $1) as keys,
            (select count(*)::int from webhook_events where tenant_id = $1) as events`,
    [tenantId],
  );
  return rows[0];
}

describe('deleting a guest', () => {
  it('erases them from Calendly and Cal.com payloads, keeps the rest, and a replay still changes nothing', async () => {
    const t = await tenantWithSources();
    const uri = `https://api.calendly.com/scheduled_events/G/invitees/ERASE${++n}`;
    const calendly = invitee('invitee.created', {
      uri,
      start: 80,
      end: 82,
      createdAt: new Date().toISOString(),
      name: 'Hana Mori',
      email: 'hana.mori@example.com',
    });
    const withAnswers = {
      ...calendly,
      payload: {
        ...calendly.payload,
        text_reminder_number: '+81 90 1234 5678',
        questions_and_answers: [{ question: 'Anything?', answer: 'Hana Mori, allergic to cats' }],
        cancellation: { reason: 'Hana Mori cannot come' },
      },
    };
    await sendCalendly(t.tenantId, withAnswers);
    const uid = `cal-erase-${n}`;
    await sendCal(t.tenantId, {
      triggerEvent: 'BOOKING_CREATED',
      createdAt: new Date().toISOString(),
      payload: {
        uid,
        startTime: new Date(Date.now() + 200 * 3_600_000).toISOString(),
        endTime: new Date(Date.now() + 202 * 3_600_000).toISOString(),
        eventTypeId: 4242,
        attendees: [{ name: 'Kenji Sato', email: 'kenji.sato@example.com', timeZone: 'Asia/Tokyo' }],
        responses: { name: 'Kenji Sato', email: 'kenji.sato@example.com', notes: 'Kenji Sato arrives late' },
      },
    });
    await processAll(admin, t.tenantId);
    const guests = await admin.query(`select r.external_ref, r.guest_id from reservations r where r.tenant_id = $1`, [
      t.tenantId,
    ]);
    expect(guests.rows).toHaveLength(2);
    const before = await counts(t.tenantId);
    const auditBefore = (await admin.query(`select id from audit_events where tenant_id = $1`, [t.tenantId])).rows.map(
      (r) => r.id,
    );

    for (const row of guests.rows)
      await deleteGuest({ tenantId: t.tenantId, guestId: row.guest_id, actor: TEST_ACTOR });

    expect(await mentions(t.tenantId, ['Hana', 'hana.mori@', '1234 5678', 'cats', 'Kenji', 'kenji.sato@'])).toEqual([]);
    expect(await counts(t.tenantId)).toEqual(before);
    const auditAfter = (await admin.query(`select id from audit_events where tenant_id = $1`, [t.tenantId])).rows.map(
      (r) => r.id,
    );
    expect(auditAfter).toEqual(expect.arrayContaining(auditBefore));
    const state = await reservationsOf(admin, t.tenantId);
    await replayWebhookEvents({
      provider: 'calendly',
      tenantId: t.tenantId,
      from: new Date(Date.now() - 3_600_000),
      to: new Date(Date.now() + 60_000),
      actor: TEST_ACTOR,
    });
    await replayWebhookEvents({
      provider: 'cal',
      tenantId: t.tenantId,
      from: new Date(Date.now() - 3_600_000),
      to: new Date(Date.now() + 60_000),
      actor: TEST_ACTOR,
    });
    await processAll(admin, t.tenantId);
    expect(await reservationsOf(admin, t.tenantId)).toEqual(state);
    const statuses = await admin.query(`select distinct status from webhook_events where tenant_id = $1`, [t.tenantId]);
    expect(statuses.rows).toEqual([{ status: 'processed' }]);
  });

  it('erases them from the Stripe events of their booking group', async () => {
    const t = await tenantWithSources();
    const account = `acct_erase${++n}`;
    await admin.query(`update tenants set stripe_account_id = $2 where id = $1`, [t.tenantId, account]);
    const intent = `pi_erase${Date.now()}`;
    const start = new Date(Date.now() + 400 * 86_400_000 + n * 3 * 86_400_000);
    const group = await bookGroup({
      tenantId: t.tenantId,
      actor: TEST_ACTOR,
      source: 'api',
      guest: { name: 'Aoi Ito', email: 'aoi.ito@example.com' },
      paymentIntentId: intent,
      reservations: [{ roomId: t.roomIds[0]!, startsAt: start, endsAt: new Date(start.getTime() + 86_400_000) }],
    });
    const event = {
      id: `evt_erase_${n}`,
      object: 'event',
      type: 'payment_intent.payment_failed',
      created: Math.floor(Date.now() / 1000),
      account,
      data: {
        object: {
          id: intent,
          object: 'payment_intent',
          amount: 5000,
          currency: 'jpy',
          receipt_email: 'aoi.ito@example.com',
          shipping: { name: 'Aoi Ito', address: { line1: '1-2-3 Gion' } },
          last_payment_error: {
            code: 'card_declined',
            payment_method: { billing_details: { name: 'Aoi Ito', email: 'aoi.ito@example.com' } },
          },
        },
      },
    };
    expect((await deliverStripe(event, { secret: SECRET })).status).toBe(200);
    const guestId = (await admin.query(`select guest_id from reservations where booking_group_id = $1`, [group.id]))
      .rows[0].guest_id;
    await deleteGuest({ tenantId: t.tenantId, guestId, actor: TEST_ACTOR });
    expect(await mentions(t.tenantId, ['Aoi', 'aoi.ito@', 'Gion'])).toEqual([]);
    const kept = await admin.query(
      `select payload->'data'->'object'->>'id' as intent, payload->'data'->'object'->'last_payment_error'->>'code' as code from webhook_events where dedupe_key = $1`,
      [event.id],
    );
    expect(kept.rows).toEqual([{ intent, code: 'card_declined' }]);
  });
});
