import { createHash, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setProviderSecret } from '../secrets/provider-secrets';
import { calBooking, invitee, sendCal, sendCalendly, tenantWithSources } from '../../tooling/testing/booking-webhooks';
import { adminClient, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { seamEvent, sendSeam } from '../../tooling/testing/seam-webhooks';
import { deliverStripe } from '../../tooling/testing/stripe-events';
import { newSvixSecret } from '../../tooling/testing/svix';

// A signed delivery whose JSON nests 10,000 deep: answered 400, kept in the inbox as failed (so the
// webhook log shows it arrived), never a 500 that loses it.

const STRIPE_SECRET = 'whsec_deep_json_test';
let admin: pg.Client;
beforeAll(async () => {
  process.env.STRIPE_WEBHOOK_SECRET = STRIPE_SECRET;
  process.env.APP_DATA_KEY = 'deep-json-test-key-0123456789';
  admin = await adminClient();
});
afterAll(async () => {
  delete process.env.STRIPE_WEBHOOK_SECRET;
  delete process.env.APP_DATA_KEY;
  await admin.end();
});

/** An ordinary event with `depth` nested arrays where it says `DEEP` (a field the provider may send). */
function deepBody(event: unknown, depth = 10_000): string {
  return JSON.stringify(event).replace('"__DEEP__"', '['.repeat(depth) + ']'.repeat(depth));
}
const DEEP = '__DEEP__';
const bodyKey = (raw: string) => `body:${createHash('sha256').update(raw).digest('hex')}`;

async function stored(dedupeKey: string) {
  const { rows } = await admin.query(
    `select provider::text, tenant_id, status::text, reason, payload from webhook_events where dedupe_key = $1`,
    [dedupeKey],
  );
  return rows;
}

async function expectRefusedAndKept(response: Response, raw: string, provider: string, tenantId: string | null) {
  expect(response.status).toBe(400);
  expect((await response.json()).error).toMatchObject({ code: 'invalid_request' });
  expect(response.headers.get('x-request-id')).toBeTruthy();
  expect(await stored(bodyKey(raw))).toEqual([
    { provider, tenant_id: tenantId, status: 'failed', reason: 'too_deep', payload: {} },
  ]);
}

describe('a signed webhook with JSON nested 10,000 deep', () => {
  it('Calendly and Cal.com: 400, stored as failed', async () => {
    const t = await tenantWithSources();
    const event = invitee('invitee.created', {
      uri: `https://api.calendly.com/scheduled_events/E/invitees/${randomUUID()}`,
      start: 5,
      end: 6,
      createdAt: new Date().toISOString(),
    });
    const calendly = deepBody({ ...event, payload: { ...event.payload, questions_and_answers: DEEP } });
    await expectRefusedAndKept(await sendCalendly(t.tenantId, calendly), calendly, 'calendly', t.tenantId);
    // The same bytes again: the same stored row, answered the same.
    expect((await sendCalendly(t.tenantId, calendly)).status).toBe(400);
    expect(await stored(bodyKey(calendly))).toHaveLength(1);

    const cal = deepBody(calBooking('BOOKING_CREATED', randomUUID(), { responses: DEEP }));
    await expectRefusedAndKept(await sendCal(t.tenantId, cal), cal, 'cal', t.tenantId);
  });

  it('Seam: 400, stored as failed', async () => {
    const t = await tenantWithSources();
    const secret = newSvixSecret();
    await setProviderSecret({ tenantId: t.tenantId, provider: 'seam_webhook', value: secret, actor: TEST_ACTOR });
    const raw = deepBody(seamEvent('lock.unlocked', { device_id: randomUUID(), metadata: DEEP }));
    await expectRefusedAndKept(await sendSeam(t.tenantId, raw, { secret }), raw, 'seam', t.tenantId);
  });

  it('Stripe: 400, stored as failed', async () => {
    const raw = deepBody({
      id: `evt_${randomUUID()}`,
      object: 'event',
      type: 'charge.refunded',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      data: { object: { id: `ch_${randomUUID()}`, object: 'charge', metadata: DEEP } },
    });
    await expectRefusedAndKept(await deliverStripe(null, { secret: STRIPE_SECRET, body: raw }), raw, 'stripe', null);
  });

  it('an unsigned deep body is refused for its signature and stores nothing', async () => {
    const t = await tenantWithSources();
    const raw = deepBody({ event: 'invitee.created', payload: DEEP });
    const response = await sendCalendly(t.tenantId, raw, { key: 'wrong-key' });
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe('invalid_signature');
    expect(await stored(bodyKey(raw))).toEqual([]);
  });
});

describe('jsonNestsDeeperThan', () => {
  it('counts objects and arrays, never brackets inside strings or escaped quotes', async () => {
    const { jsonNestsDeeperThan, MAX_JSON_DEPTH } = await import('../http/body');
    const nested = (n: number) => '['.repeat(n) + ']'.repeat(n);
    expect(jsonNestsDeeperThan(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonNestsDeeperThan(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonNestsDeeperThan(JSON.stringify({ a: '['.repeat(500), b: '\\"{{{{"' }))).toBe(false);
    expect(
      jsonNestsDeeperThan(`{"a":"\\\\",${'"b":{'.repeat(MAX_JSON_DEPTH)}"c":1${'}'.repeat(MAX_JSON_DEPTH)}}`),
    ).toBe(true);
  });
});
