import type pg from 'pg';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeStandin, type StripeStandin } from '../../tooling/stripe-standin/stripe-standin';
import { adminClient, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { standinStripe } from '../../tooling/testing/stripe-standin-app';
import { createTenant } from '../staff/create-tenant';
import { handleAccountUpdated } from '../webhooks/stripe/account-updated';
import {
  readStripeConnection,
  refreshStripeConnection,
  startStripeOnboarding,
  type StripeConnection,
} from './stripe-connect';

// Issue 32, item 3: a tenant connects its own Stripe account from the browser — one account per tenant however
// many clicks, onboarded through the stand-in's account links, stored and audited when Stripe says it is ready.

const APP = 'http://app.test';
let admin: pg.Client;
let standin: StripeStandin;
let stripe: Stripe;

beforeAll(async () => {
  admin = await adminClient();
  standin = await startStripeStandin({ webhookUrl: null, webhookSecret: 'whsec_unused' });
  stripe = standinStripe(standin);
});
afterAll(async () => {
  await standin.close();
  await admin.end();
});

const tenantRow = async (tenantId: string) =>
  (
    await admin.query(
      `select stripe_account_id, stripe_pending_account_id, stripe_onboarding from tenants where id = $1`,
      [tenantId],
    )
  ).rows[0];
const accountsOf = (tenantId: string) => standin.accounts().filter((a) => a.metadata.tenantId === tenantId);

/** Answers the stand-in's onboarding page as the person at Stripe would; returns where the browser goes next. */
async function finishOnboarding(linkUrl: string, outcome: 'complete' | 'refuse'): Promise<string> {
  const response = await fetch(linkUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `outcome=${outcome}`,
    redirect: 'manual',
  });
  expect(response.status).toBe(303);
  return response.headers.get('location')!;
}

describe('connecting a tenant’s Stripe account', () => {
  it('makes one account for two clicks at once, and a retry reuses it with a fresh link', async () => {
    const { id: tenantId } = await createTenant({ name: 'Connect Inn' });
    const [a, b] = await Promise.all([
      startStripeOnboarding({ tenantId, stripe, appUrl: APP }),
      startStripeOnboarding({ tenantId, stripe, appUrl: APP }),
    ]);
    expect(a.accountId).toBe(b.accountId);
    expect(accountsOf(tenantId).map((x) => x.id)).toEqual([a.accountId]);
    expect(accountsOf(tenantId)[0]).toMatchObject({ type: 'standard' });
    expect(await tenantRow(tenantId)).toEqual({
      stripe_account_id: null,
      stripe_pending_account_id: a.accountId,
      stripe_onboarding: 'onboarding',
    });
    expect(a.url).toMatch(new RegExp(`^${standin.url}/connect/onboard/`));

    const again = await startStripeOnboarding({ tenantId, stripe, appUrl: APP });
    expect(again.accountId).toBe(a.accountId);
    expect(again.url).not.toBe(a.url);
    expect(accountsOf(tenantId)).toHaveLength(1);
    expect(await readStripeConnection({ tenantId })).toEqual({ state: 'onboarding', accountId: a.accountId });
  });

  it('sends the browser back to return_url; the return page stores the account and audits it once', async () => {
    const { id: tenantId } = await createTenant({ name: 'Return Inn' });
    const { url, accountId } = await startStripeOnboarding({ tenantId, stripe, appUrl: APP });

    // Back before finishing: still onboarding, nothing audited.
    expect(await refreshStripeConnection({ tenantId, stripe, actor: TEST_ACTOR })).toEqual({
      state: 'onboarding',
      accountId,
    });
    expect(await finishOnboarding(url, 'complete')).toBe(`${APP}/manage/payments/return`);
    // The link is used: opening it again sends the browser to refresh_url for a fresh one.
    const reopened = await fetch(url, { redirect: 'manual' });
    expect([reopened.status, reopened.headers.get('location')]).toEqual([303, `${APP}/manage/payments/refresh`]);

    const expected: StripeConnection = { state: 'connected', accountId };
    expect(await refreshStripeConnection({ tenantId, stripe, actor: TEST_ACTOR })).toEqual(expected);
    expect(await refreshStripeConnection({ tenantId, stripe, actor: TEST_ACTOR })).toEqual(expected);
    expect(await tenantRow(tenantId)).toEqual({
      stripe_account_id: accountId,
      stripe_pending_account_id: null,
      stripe_onboarding: null,
    });
    const { rows } = await admin.query(
      `select action, subject_type, subject_id, metadata from audit_events where tenant_id = $1 and action like 'payments.%'`,
      [tenantId],
    );
    expect(rows).toEqual([
      {
        action: 'payments.stripe_connected',
        subject_type: 'tenant',
        subject_id: tenantId,
        metadata: { account: accountId },
      },
    ]);
    // Connected: no second account, and no new link.
    await expect(startStripeOnboarding({ tenantId, stripe, appUrl: APP })).rejects.toMatchObject({ code: 'conflict' });
    expect(accountsOf(tenantId)).toHaveLength(1);
  });

  it('shows an account Stripe refused as refused, and never as the tenant’s', async () => {
    const { id: tenantId } = await createTenant({ name: 'Refused Inn' });
    const { url, accountId } = await startStripeOnboarding({ tenantId, stripe, appUrl: APP });
    await finishOnboarding(url, 'refuse');
    expect(await refreshStripeConnection({ tenantId, stripe, actor: TEST_ACTOR })).toEqual({
      state: 'refused',
      accountId,
    });
    expect(await tenantRow(tenantId)).toMatchObject({ stripe_account_id: null, stripe_onboarding: 'refused' });
  });

  it('shows an account set by the CLI as connected, and asks Stripe nothing for it', async () => {
    const { id: tenantId } = await createTenant({ name: 'CLI Inn', stripeAccountId: `acct_cli${Date.now()}` });
    const before = standin.accounts().length;
    expect(await readStripeConnection({ tenantId })).toMatchObject({ state: 'connected' });
    expect(await refreshStripeConnection({ tenantId, stripe, actor: TEST_ACTOR })).toMatchObject({
      state: 'connected',
    });
    await expect(startStripeOnboarding({ tenantId, stripe, appUrl: APP })).rejects.toMatchObject({ code: 'conflict' });
    expect(standin.accounts()).toHaveLength(before);
  });
});

describe('the account.updated webhook', () => {
  it('finds the tenant by its pending account and connects it as the return page would', async () => {
    const { id: tenantId } = await createTenant({ name: 'Webhook Inn' });
    const { accountId } = await startStripeOnboarding({ tenantId, stripe, appUrl: APP });
    const stored = await admin.query(
      `select id from app_webhook_store('stripe', $1, 'account.updated', '{}', now(), null, $2)`,
      [`evt_connect_${tenantId}`, accountId],
    );
    const { rows } = await admin.query(`select tenant_id from webhook_events where id = $1`, [stored.rows[0].id]);
    expect(rows[0].tenant_id).toBe(tenantId);
    const event = (object: Record<string, unknown>) => ({
      id: `evt_${Math.random()}`,
      provider: 'stripe' as const,
      type: 'account.updated',
      tenantId,
      providerCreatedAt: null,
      receivedAt: new Date(),
      payload: { id: 'evt_1', type: 'account.updated', created: 1, account: accountId, data: { object } },
    });
    const unfinished = { id: accountId, details_submitted: true, charges_enabled: false, requirements: {} };
    expect(await handleAccountUpdated(event(unfinished))).toEqual({ status: 'processed' });
    expect(await readStripeConnection({ tenantId })).toEqual({ state: 'onboarding', accountId });
    const ready = { id: accountId, details_submitted: true, charges_enabled: true, requirements: {} };
    expect(await handleAccountUpdated(event(ready))).toEqual({ status: 'processed' });
    expect(await handleAccountUpdated(event(unfinished))).toEqual({ status: 'processed' });
    expect(await readStripeConnection({ tenantId })).toEqual({ state: 'connected', accountId });
    const { rows: audit } = await admin.query(
      `select actor_type, actor_label from audit_events where tenant_id = $1 and action = 'payments.stripe_connected'`,
      [tenantId],
    );
    expect(audit).toEqual([{ actor_type: 'provider', actor_label: 'Stripe' }]);
  });
});

describe('the constraints on a tenant’s Stripe accounts', () => {
  it('keeps a pending account one tenant’s, and a tenant holding one account or the other', async () => {
    const { id: a } = await createTenant({ name: 'Pending A' });
    const { id: b } = await createTenant({ name: 'Pending B' });
    const account = `acct_unique${Date.now()}`;
    await admin.query(
      `update tenants set stripe_pending_account_id = $2, stripe_onboarding = 'onboarding' where id = $1`,
      [a, account],
    );
    await expect(
      admin.query(`update tenants set stripe_pending_account_id = $2, stripe_onboarding = 'onboarding' where id = $1`, [
        b,
        account,
      ]),
    ).rejects.toMatchObject({ code: '23505' });
    await expect(
      admin.query(`update tenants set stripe_account_id = 'acct_other1' where id = $1`, [a]),
    ).rejects.toMatchObject({ code: '23514', constraint: 'tenants_stripe_one_account' });
    await expect(admin.query(`update tenants set stripe_onboarding = null where id = $1`, [a])).rejects.toMatchObject({
      code: '23514',
      constraint: 'tenants_stripe_onboarding_state',
    });
    await expect(
      admin.query(
        `update tenants set stripe_pending_account_id = 'acct_bad_id', stripe_onboarding = 'onboarding' where id = $1`,
        [b],
      ),
    ).rejects.toMatchObject({ code: '23514' });
  });
});
