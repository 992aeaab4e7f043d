-- Issue 32, items 2 and 3: a person's own language, and a tenant's Stripe account connected from the browser.
--
-- 1. The language a person chose on /account (null: the browser's, then the facility's for mail).
alter table users add column locale text check (locale in ('en', 'ja'));

-- 2. Stripe Connect onboarding (decision 035). The account made for a tenant waits in
--    stripe_pending_account_id until Stripe says it may take charges; then it moves to stripe_account_id, which
--    payments and the routing of Connect events already use. Unique like stripe_account_id, so a second click or a
--    retry finds and reuses the pending account instead of making another; a tenant holds one or the other.
alter table tenants
  add column stripe_pending_account_id text unique check (stripe_pending_account_id ~ '^acct_[A-Za-z0-9]+$'),
  add column stripe_onboarding text check (stripe_onboarding in ('onboarding', 'refused')),
  add constraint tenants_stripe_one_account check (stripe_pending_account_id is null or stripe_account_id is null),
  add constraint tenants_stripe_onboarding_state
    check ((stripe_pending_account_id is null) = (stripe_onboarding is null));
