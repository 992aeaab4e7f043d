import type Stripe from 'stripe';
import type { Actor } from '../audit/actor';
import { asService, effectStatement, runInTransaction, sqlLiteral, statement } from '../db/tx';
import { AppError } from '../errors';

// A tenant connects its own Stripe account from the browser (decision 035): a Standard account made once per
// tenant, onboarded through Stripe's account links, kept in tenants.stripe_pending_account_id until Stripe says it
// takes charges, then moved to tenants.stripe_account_id — what checkout and Connect events already use.

/** Where the tenant's Stripe connection stands. */
export type StripeConnection =
  | { state: 'none' }
  | { state: 'connected'; accountId: string }
  | { state: 'onboarding' | 'refused'; accountId: string };

type TenantStripeRow = {
  stripe_account_id: string | null;
  stripe_pending_account_id: string | null;
  stripe_onboarding: 'onboarding' | 'refused' | null;
};

function connectionOf(row: TenantStripeRow): StripeConnection {
  if (row.stripe_account_id) return { state: 'connected', accountId: row.stripe_account_id };
  if (row.stripe_pending_account_id)
    return { state: row.stripe_onboarding ?? 'onboarding', accountId: row.stripe_pending_account_id };
  return { state: 'none' };
}

const tenantStripeColumns = 'stripe_account_id, stripe_pending_account_id, stripe_onboarding';

/** The tenant's Stripe connection as stored (an account set by `tenant-create --stripe-account` is connected). */
export async function readStripeConnection({ tenantId }: { tenantId: string }): Promise<StripeConnection> {
  const [rows] = await asService({ tenantId }, (tx) =>
    runInTransaction(tx, [
      statement<TenantStripeRow>(
        `select ${tenantStripeColumns} from tenants where id = ${sqlLiteral(tenantId, 'uuid')}`,
      ),
    ]),
  );
  if (!rows[0]) throw new AppError('not_found', 'No such tenant.');
  return connectionOf(rows[0]);
}

/** The Stripe idempotency key of the one account made for a tenant: concurrent clicks get the same account. */
export function connectAccountIdempotencyKey(tenantId: string): string {
  return `connect-account:${tenantId}`;
}

/**
 * The tenant's pending Connect account, made at Stripe the first time (a Standard account, with the tenant id
 * in its metadata). Two requests at once send the same idempotency key, so Stripe makes one account; the first
 * to store it wins and the other reads it back. A tenant already connected is `conflict`.
 */
async function pendingAccount(stripe: Stripe, tenantId: string): Promise<string> {
  const stored = await readStripeConnection({ tenantId });
  if (stored.state === 'connected') throw new AppError('conflict', 'This tenant’s Stripe account is connected.');
  if (stored.state !== 'none') return stored.accountId;
  const account = await stripe.accounts.create(
    { type: 'standard', metadata: { tenantId } },
    { idempotencyKey: connectAccountIdempotencyKey(tenantId) },
  );
  const [rows] = await asService({ tenantId }, (tx) =>
    runInTransaction(tx, [
      statement<TenantStripeRow>(`
      with claimed as (
        update tenants set stripe_pending_account_id = ${sqlLiteral(account.id, 'text')}, stripe_onboarding = 'onboarding'
         where id = ${sqlLiteral(tenantId, 'uuid')} and stripe_pending_account_id is null and stripe_account_id is null
        returning ${tenantStripeColumns})
      select * from claimed
      union all
      select ${tenantStripeColumns} from tenants
       where id = ${sqlLiteral(tenantId, 'uuid')} and not exists (select 1 from claimed)`),
    ]),
  );
  // A concurrent request stored the account first (the same one: the same idempotency key).
  const connection = connectionOf(rows[0]!);
  if (connection.state === 'connected') throw new AppError('conflict', 'This tenant’s Stripe account is connected.');
  if (connection.state === 'none') throw new AppError('internal', 'The Stripe account was not stored.');
  return connection.accountId;
}

/**
 * Starts (or continues) the tenant's Stripe onboarding: its one pending account, and a fresh account link for
 * it whose refresh and return pages are under `appUrl`. Returns the link's URL to send the browser to.
 */
export async function startStripeOnboarding(input: {
  tenantId: string;
  stripe: Stripe;
  appUrl: string;
}): Promise<{ url: string; accountId: string }> {
  const { tenantId, stripe } = input;
  const accountId = await pendingAccount(stripe, tenantId);
  const base = input.appUrl.replace(/\/$/, '');
  const link = await stripe.accountLinks.create({
    account: accountId,
    type: 'account_onboarding',
    refresh_url: `${base}/manage/payments/refresh`,
    return_url: `${base}/manage/payments/return`,
  });
  return { url: link.url, accountId };
}

/** What Stripe says of an account, reduced to the three states the product shows. */
export function onboardingStateOf(
  account: Pick<Stripe.Account, 'details_submitted' | 'charges_enabled' | 'requirements'>,
): 'connected' | 'onboarding' | 'refused' {
  if (account.requirements?.disabled_reason?.startsWith('rejected')) return 'refused';
  if (account.details_submitted && account.charges_enabled) return 'connected';
  return 'onboarding';
}

/**
 * Converges the tenant's pending account on what Stripe says of it: able to take charges → it becomes the
 * tenant's account (audited `payments.stripe_connected`, once); rejected → `refused`; else still onboarding.
 * An account that is not the tenant's pending one changes nothing. Returns the connection as stored after.
 */
export async function applyStripeAccountState(input: {
  tenantId: string;
  accountId: string;
  state: 'connected' | 'onboarding' | 'refused';
  actor: Actor;
}): Promise<StripeConnection> {
  const { tenantId, accountId, state, actor } = input;
  const t = sqlLiteral(tenantId, 'uuid');
  const acct = sqlLiteral(accountId, 'text');
  const stateText = sqlLiteral(state, 'text');
  const change =
    state === 'connected'
      ? `with changed as (
           update tenants set stripe_account_id = stripe_pending_account_id, stripe_pending_account_id = null,
                  stripe_onboarding = null
            where id = ${t} and stripe_pending_account_id = ${acct}
           returning id)
         select app_audit(${t}, ${sqlLiteral(actor.type, 'actor_type')}, ${sqlLiteral(actor.id, 'text')},
                ${sqlLiteral(actor.label, 'text')}, 'payments.stripe_connected', 'tenant', ${t}, null, null,
                jsonb_build_object('account', ${acct}))
           from changed`
      : `update tenants set stripe_onboarding = ${stateText}
          where id = ${t} and stripe_pending_account_id = ${acct} and stripe_onboarding is distinct from ${stateText}`;
  const [, rows] = await asService({ tenantId }, (tx) =>
    runInTransaction(tx, [
      effectStatement(change),
      statement<TenantStripeRow>(`select ${tenantStripeColumns} from tenants where id = ${t}`),
    ]),
  );
  return connectionOf(rows[0]!);
}

/**
 * The return page's read: asks Stripe for the tenant's pending account and converges on its answer.
 * A tenant without a pending account gets its stored connection unchanged.
 */
export async function refreshStripeConnection(input: {
  tenantId: string;
  stripe: Stripe;
  actor: Actor;
}): Promise<StripeConnection> {
  const stored = await readStripeConnection({ tenantId: input.tenantId });
  if (stored.state === 'none' || stored.state === 'connected') return stored;
  const account = await input.stripe.accounts.retrieve(stored.accountId);
  return applyStripeAccountState({
    tenantId: input.tenantId,
    accountId: stored.accountId,
    state: onboardingStateOf(account),
    actor: input.actor,
  });
}
