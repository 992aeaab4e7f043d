import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../auth/api-keys';
import { bookGroup } from '../bookings/book-group';
import { adminClient, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { startStripeStub } from '../../tooling/testing/stripe-stub';
import { deliverAndProcessStripe } from '../../tooling/testing/stripe-events';
import { resetStripeClientForTests } from './stripe-client';
import { routeHandler } from '../api/router';

const createGroupRoute = routeHandler('POST', '/api/v1/booking-groups');

// A PaymentIntent a caller attaches, and the payment Stripe later reports, are checked with Stripe
// and against the group before anything is marked paid; intent ids are unique within a tenant only.

const WEBHOOK_SECRET = 'whsec_attached_intents';
let stub: Awaited<ReturnType<typeof startStripeStub>>;
let admin: pg.Client;
let seq = 0;
const at = (days: number) => new Date(Date.UTC(2028, 2, 1) + (days + seq * 3) * 86_400_000);

beforeAll(async () => {
  stub = await startStripeStub();
  admin = await adminClient();
  process.env.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET;
});
afterAll(async () => {
  delete process.env.STRIPE_WEBHOOK_SECRET;
  await admin.end();
  await stub.close();
});

async function withStripe<T>(fn: () => Promise<T>): Promise<T> {
  process.env.STRIPE_SECRET_KEY = 'sk_test_stub';
  process.env.STRIPE_API_BASE = stub.url;
  resetStripeClientForTests();
  try {
    return await fn();
  } finally {
    delete process.env.STRIPE_SECRET_KEY;
    delete process.env.STRIPE_API_BASE;
    resetStripeClientForTests();
  }
}

async function tenantOn(account: string) {
  const t = await createBookableTenant({ rooms: 2 });
  await admin.query(`update tenants set stripe_account_id = $2 where id = $1`, [t.tenantId, account]);
  return t;
}

async function deliverAndProcess(event: { id: string }) {
  const { status, reason } = await deliverAndProcessStripe(admin, event, WEBHOOK_SECRET);
  return { status, reason };
}

const succeeded = (intent: string, account: string, amount: number, currency: string) => ({
  id: `evt_att_${Date.now()}_${++seq}`,
  object: 'event',
  type: 'payment_intent.succeeded',
  created: Math.floor(Date.now() / 1000),
  account,
  data: {
    object: { id: intent, object: 'payment_intent', amount, amount_received: amount, currency, status: 'succeeded' },
  },
});

async function paidCount(groupId: string) {
  return (
    await admin.query(
      `select count(*)::int as n from reservations where booking_group_id = $1 and paid_at is not null`,
      [groupId],
    )
  ).rows[0].n;
}

describe('attaching a caller’s PaymentIntent', () => {
  it('is refused (payment_intent_invalid) when the intent is not on the tenant’s connected account, holding nothing', async () => {
    const t = await tenantOn(`acct_attachMine${++seq}`);
    stub.addIntent({ id: `pi_elsewhere${seq}`, amount: 100, currency: 'jpy', account: 'acct_someoneElse' });
    const { key } = await createApiKey({ tenantId: t.tenantId, name: 'shop', actor: TEST_ACTOR });
    const response = await withStripe(() =>
      createGroupRoute(
        new Request('http://test/api/v1/booking-groups', {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            guest: { name: 'Mallory' },
            paymentIntentId: `pi_elsewhere${seq}`,
            reservations: [{ roomId: t.roomIds[0], startsAt: at(1).toISOString(), endsAt: at(2).toISOString() }],
          }),
        }),
        { params: Promise.resolve({}) },
      ),
    );
    expect(response.status).toBe(409);
    expect((await response.json()).error.code).toBe('payment_intent_invalid');
    expect(
      (await admin.query(`select count(*)::int as n from reservations where tenant_id = $1`, [t.tenantId])).rows[0].n,
    ).toBe(0);
  });

  it('records the amount Stripe holds for an intent on the tenant’s account', async () => {
    const account = `acct_attachOk${++seq}`;
    const t = await tenantOn(account);
    stub.addIntent({ id: `pi_mine${seq}`, amount: 24000, currency: 'jpy', account });
    const group = await withStripe(() =>
      bookGroup({
        tenantId: t.tenantId,
        actor: TEST_ACTOR,
        source: 'api',
        guest: { name: 'Ok' },
        paymentIntentId: `pi_mine${seq}`,
        reservations: [{ roomId: t.roomIds[0]!, startsAt: at(1), endsAt: at(3) }],
      }),
    );
    expect(
      (await admin.query(`select amount_cents, currency from booking_groups where id = $1`, [group.id])).rows[0],
    ).toEqual({ amount_cents: 24000, currency: 'jpy' });
  });

  it('is unique within a tenant only: another tenant can neither squat an intent id nor learn it is in use', async () => {
    const a = await createBookableTenant({ rooms: 2 });
    const b = await createBookableTenant({ rooms: 1 });
    const intent = `pi_shared${Date.now()}`;
    await bookGroup({
      tenantId: a.tenantId,
      actor: TEST_ACTOR,
      source: 'api',
      guest: { name: 'A' },
      paymentIntentId: intent,
      reservations: [{ roomId: a.roomIds[0]!, startsAt: at(1), endsAt: at(2) }],
    });
    const inB = await bookGroup({
      tenantId: b.tenantId,
      actor: TEST_ACTOR,
      source: 'api',
      guest: { name: 'B' },
      paymentIntentId: intent,
      reservations: [{ roomId: b.roomIds[0]!, startsAt: at(1), endsAt: at(2) }],
    });
    expect(inB.paymentIntentId).toBe(intent);
    await expect(
      bookGroup({
        tenantId: a.tenantId,
        actor: TEST_ACTOR,
        source: 'api',
        guest: { name: 'A2' },
        paymentIntentId: intent,
        reservations: [{ roomId: a.roomIds[1]!, startsAt: at(1), endsAt: at(2) }],
      }),
    ).rejects.toMatchObject({ code: 'payment_intent_in_use' });
  });
});

describe('payment_intent.succeeded', () => {
  it('fails closed with an incident when the amount or currency differs from the group’s, marking nothing paid', async () => {
    const account = `acct_amount${++seq}`;
    const t = await tenantOn(account);
    const group = await withStripe(() =>
      bookGroup({
        tenantId: t.tenantId,
        actor: TEST_ACTOR,
        source: 'api',
        guest: { name: 'Payer' },
        reservations: [{ roomId: t.roomIds[0]!, startsAt: at(1), endsAt: at(3) }],
      }),
    );
    const { rows } = await admin.query(`select amount_cents, currency from booking_groups where id = $1`, [group.id]);
    expect(rows[0].amount_cents).toBeGreaterThan(100);
    expect(await deliverAndProcess(succeeded(group.paymentIntentId!, account, 100, rows[0].currency))).toEqual({
      status: 'failed',
      reason: 'amount_mismatch',
    });
    expect(await deliverAndProcess(succeeded(group.paymentIntentId!, account, rows[0].amount_cents, 'usd'))).toEqual({
      status: 'failed',
      reason: 'amount_mismatch',
    });
    expect(await paidCount(group.id)).toBe(0);
    const incidents = await admin.query(
      `select kind, severity from incidents where tenant_id = $1 and resolved_at is null`,
      [t.tenantId],
    );
    expect(incidents.rows).toContainEqual({ kind: 'payment_mismatch', severity: 'critical' });
    expect(
      await deliverAndProcess(succeeded(group.paymentIntentId!, account, rows[0].amount_cents, rows[0].currency)),
    ).toEqual({ status: 'processed', reason: null });
    expect(await paidCount(group.id)).toBe(1);
  });

  it('pays only the groups of the account’s own tenant when two tenants hold the same intent id', async () => {
    const accountA = `acct_twoA${++seq}`;
    const a = await tenantOn(accountA);
    const b = await createBookableTenant({ rooms: 1 });
    const intent = `pi_twice${Date.now()}`;
    const groupA = await bookGroup({
      tenantId: a.tenantId,
      actor: TEST_ACTOR,
      source: 'api',
      guest: { name: 'A' },
      paymentIntentId: intent,
      reservations: [{ roomId: a.roomIds[0]!, startsAt: at(1), endsAt: at(2) }],
    });
    const groupB = await bookGroup({
      tenantId: b.tenantId,
      actor: TEST_ACTOR,
      source: 'api',
      guest: { name: 'B' },
      paymentIntentId: intent,
      reservations: [{ roomId: b.roomIds[0]!, startsAt: at(1), endsAt: at(2) }],
    });
    expect(await deliverAndProcess(succeeded(intent, accountA, 5000, 'jpy'))).toEqual({
      status: 'processed',
      reason: null,
    });
    expect(await paidCount(groupA.id)).toBe(1);
    expect(await paidCount(groupB.id)).toBe(0);
  });
});
