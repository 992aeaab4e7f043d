import type Stripe from 'stripe';
import { applyStripeAccountState, onboardingStateOf } from '../../payments/stripe-connect';
import type { StoredWebhookEvent, WebhookOutcome } from '../types';
import { ZStripeEventSchema } from './event-fields';

const STRIPE_ACTOR = { type: 'provider', id: null, label: 'Stripe' } as const;

/**
 * `account.updated` (a Connect event: `account` is the connected account): converges the tenant's pending
 * account on the object's state — able to take charges, it becomes the tenant's account; rejected, refused.
 * The state is Stripe's current one, so a replay or a late delivery lands where the return page does.
 */
export async function handleAccountUpdated(stored: StoredWebhookEvent): Promise<WebhookOutcome> {
  const event = ZStripeEventSchema.parse(stored.payload);
  if (!stored.tenantId) return { status: 'ignored', reason: 'unknown_account' };
  const account = event.data.object as unknown as Stripe.Account;
  if (
    typeof account.id !== 'string' ||
    !account.id.startsWith('acct_') ||
    (event.account && event.account !== account.id)
  )
    return { status: 'ignored', reason: 'not_an_account' };
  await applyStripeAccountState({
    tenantId: stored.tenantId,
    accountId: account.id,
    state: onboardingStateOf(account),
    actor: STRIPE_ACTOR,
  });
  return { status: 'processed' };
}
