import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookGroup } from '../../bookings/book-group';
import { adminClient, createBookableTenant, TEST_ACTOR } from '../../../tooling/testing/fixtures';
import { deliverStripe, stripeEventRow } from '../../../tooling/testing/stripe-events';
import { processWebhookEvent } from '../process-event';

// Billing failures are counted per day in the property's time zone, and a payment failure handled
// twice at once (a replay while the first run is in flight) is recorded once.

const SECRET = 'whsec_billing_failures';
let admin: pg.Client;
let seq = 0;

beforeAll(async () => {
  process.env.STRIPE_WEBHOOK_SECRET = SECRET;
  admin = await adminClient();
});
afterAll(async () => {
  delete process.env.STRIPE_WEBHOOK_SECRET;
  await admin.end();
});

async function deliver(event: { id: string } & Record<string, unknown>): Promise<string> {
  expect((await deliverStripe(event, { secret: SECRET })).status).toBe(200);
  return (await stripeEventRow(admin, event.id))!.id;
}

async function tenantOn(account: string) {
  const t = await createBookableTenant({ rooms: 2 }); // its facility is in Asia/Tokyo (UTC+9)
  await admin.query(`update tenants set stripe_account_id = $2 where id = $1`, [t.tenantId, account]);
  return t;
}

const at = (iso: string) => Math.floor(Date.parse(iso) / 1000);

describe('billing failures', () => {
  it('are counted per day in the facility’s time zone: 14:00 and 16:30 UTC are two days in Tokyo', async () => {
    const account = `acct_billTz${++seq}`;
    const t = await tenantOn(account);
    for (const [n, created] of [
      [1, '2026-11-30T14:00:00Z'],
      [2, '2026-11-30T16:30:00Z'],
    ] as const) {
      const id = await deliver({
        id: `evt_bill_tz_${seq}_${n}`,
        object: 'event',
        type: 'invoice.payment_failed',
        created: at(created),
        account,
        data: { object: { id: `in_${n}`, amount_due: 5000 } },
      });
      await processWebhookEvent({ eventId: id, attempt: 1, maxAttempts: 10 });
    }
    const { rows } = await admin.query(
      `select to_char(day, 'YYYY-MM-DD') as day from billing_failures where tenant_id = $1 order by day`,
      [t.tenantId],
    );
    expect(rows).toEqual([{ day: '2026-11-30' }, { day: '2026-12-01' }]);
  });

  it('a payment_intent.payment_failed handled twice at once writes one row (and one audit row per reservation)', async () => {
    const account = `acct_billTwice${++seq}`;
    const t = await tenantOn(account);
    const intent = `pi_fail${Date.now()}`;
    const start = new Date(Date.UTC(2028, 5, 1 + seq));
    const group = await bookGroup({
      tenantId: t.tenantId,
      actor: TEST_ACTOR,
      source: 'api',
      guest: { name: 'Card declined' },
      paymentIntentId: intent,
      reservations: t.roomIds.map((roomId) => ({
        roomId,
        startsAt: start,
        endsAt: new Date(start.getTime() + 86_400_000),
      })),
    });
    const id = await deliver({
      id: `evt_fail_${seq}`,
      object: 'event',
      type: 'payment_intent.payment_failed',
      created: at('2026-11-30T16:30:00Z'),
      account,
      data: { object: { id: intent, last_payment_error: { code: 'card_declined' } } },
    });
    await Promise.all([1, 2, 3].map(() => processWebhookEvent({ eventId: id, attempt: 1, maxAttempts: 10 })));
    const failures = await admin.query(
      `select kind, to_char(day, 'YYYY-MM-DD') as day from billing_failures where tenant_id = $1`,
      [t.tenantId],
    );
    expect(failures.rows).toEqual([{ kind: 'payment_intent.payment_failed', day: '2026-12-01' }]);
    const audit = await admin.query(
      `select subject_id from audit_events where tenant_id = $1 and action = 'reservation.payment_failed' order by subject_id`,
      [t.tenantId],
    );
    expect(audit.rows.map((r) => r.subject_id)).toEqual(group.reservations.map((r) => r.id).sort());
    const status = await admin.query(`select status from webhook_events where id = $1`, [id]);
    expect(status.rows[0].status).toBe('processed');
  });
});
