import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { currentDataKey } from './data-key';
import { setProviderSecret } from './provider-secrets';
import { CALENDLY_KEY, invitee, sendCalendly, tenantWithSources } from '../../tooling/testing/booking-webhooks';
import { adminClient, TEST_ACTOR } from '../../tooling/testing/fixtures';
import {
  resetVerificationSecretsForTests,
  verificationSecretStats,
  waitForSecretListener,
} from './verification-secrets';

// Verifying a webhook must not make the database work for every request that merely looks signed:
// each tenant's verification secrets are cached per process (dropped the moment they change,
// whichever process changes them), and lookups of tenants the process does not know are bounded.

let admin: pg.Client;
let n = 0;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});
beforeEach(async () => {
  // A listener that connects mid-test starts its cache empty (changes it missed are unknown): let it
  // connect first, so the lookups counted are the test's own.
  await waitForSecretListener();
  resetVerificationSecretsForTests();
});

const body = () =>
  invitee('invitee.created', {
    uri: `https://api.calendly.com/scheduled_events/S/invitees/C${++n}`,
    start: 10,
    end: 11,
    createdAt: new Date().toISOString(),
    eventType: 'https://api.calendly.com/event_types/UNMAPPED',
  });

describe('webhook verification secrets', () => {
  it('are looked up once per tenant, not once per delivery — good or badly signed', async () => {
    const t = await tenantWithSources();
    // The notices of setting this tenant's secrets reach the listener asynchronously: let them land
    // before counting, so a late one does not drop the first cached copy.
    await new Promise((resolve) => setTimeout(resolve, 300));
    resetVerificationSecretsForTests();
    for (let i = 0; i < 15; i++) expect((await sendCalendly(t.tenantId, body())).status).toBe(200);
    for (let i = 0; i < 15; i++)
      expect((await sendCalendly(t.tenantId, body(), { key: 'not-the-key' })).status).toBe(400);
    // One lookup, plus at most one re-read after a mismatch (a secret changed elsewhere is picked up).
    expect(verificationSecretStats().lookups).toBeLessThanOrEqual(2);
  });

  it('change at once when the secret is set in this process', async () => {
    const t = await tenantWithSources();
    expect((await sendCalendly(t.tenantId, body())).status).toBe(200);
    await setProviderSecret({
      tenantId: t.tenantId,
      provider: 'calendly',
      value: 'the-new-calendly-key',
      actor: TEST_ACTOR,
    });
    expect((await sendCalendly(t.tenantId, body(), { key: 'the-new-calendly-key' })).status).toBe(200);
    expect((await sendCalendly(t.tenantId, body(), { key: CALENDLY_KEY })).status).toBe(400);
  });

  it('change within a second when another process sets the secret (the old one stops working)', async () => {
    const t = await tenantWithSources();
    await waitForSecretListener();
    expect((await sendCalendly(t.tenantId, body())).status).toBe(200);
    const { key, version } = currentDataKey();
    // The CLI in another process: the secret changes in the database, not in this process.
    await admin.query(`select app_secret_set($1, 'calendly', 'rotated-elsewhere-key', $2, $3)`, [
      t.tenantId,
      key,
      version,
    ]);
    const deadline = Date.now() + 2_000;
    while ((await sendCalendly(t.tenantId, body(), { key: CALENDLY_KEY })).status === 200) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await sendCalendly(t.tenantId, body(), { key: 'rotated-elsewhere-key' })).status).toBe(200);
  });

  it('cost a bounded number of lookups for tenants that do not exist, however many an outsider tries', async () => {
    const statuses: number[] = [];
    const sameUnknown = randomUUID();
    for (let i = 0; i < 50; i++) statuses.push((await sendCalendly(sameUnknown, body())).status);
    expect(verificationSecretStats().lookups).toBe(1);
    for (let i = 0; i < 400; i++) statuses.push((await sendCalendly(randomUUID(), body())).status);
    expect(new Set(statuses)).toEqual(new Set([404, 503]));
    const { lookups, budget } = verificationSecretStats();
    expect(lookups).toBeLessThanOrEqual(budget.capacity + 1 + Math.ceil(budget.perSecond * 10));
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(0);
    // A known tenant, already cached, is not held back by the flood.
    const t = await tenantWithSources();
    resetVerificationSecretsForTests({ keepBudget: false });
    expect((await sendCalendly(t.tenantId, body())).status).toBe(200);
  });

  it('never refuse a known tenant because of deliveries for unknown ones, even in a fresh process cache', async () => {
    const t = await tenantWithSources();
    await new Promise((resolve) => setTimeout(resolve, 300));
    // An outsider floods random tenant ids until the budget for unknown tenants is spent.
    const flood: number[] = [];
    for (let i = 0; i < 400; i++) flood.push((await sendCalendly(randomUUID(), body())).status);
    expect(flood).toContain(503);
    // A process that has not seen the real tenant yet (a fresh web process, a cache dropped by a
    // notice): its correctly signed delivery is accepted, the spent budget notwithstanding.
    resetVerificationSecretsForTests({ keepBudget: true });
    expect((await sendCalendly(t.tenantId, body())).status).toBe(200);
    // And the rest of the flood keeps costing unknown tenants only their own budget.
    expect((await sendCalendly(randomUUID(), body())).status).toBeOneOf([404, 503]);
    expect((await sendCalendly(t.tenantId, body(), { key: 'not-the-key' })).status).toBe(400);
  });
});
