-- Stores a verified webhook delivery once (its dedupe key), resolving the tenant of a Stripe account (or pending one).
CREATE OR REPLACE FUNCTION public.app_webhook_store(p_provider webhook_provider, p_dedupe_key text, p_type text, p_payload jsonb, p_provider_created_at timestamp with time zone, p_tenant_id uuid, p_stripe_account text)
 RETURNS TABLE(id uuid, duplicate boolean)
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_tenant uuid := p_tenant_id;
  v_id uuid;
begin
  if v_tenant is null and p_stripe_account is not null then
    -- The tenant's account, or the one it is onboarding (its account.updated events); two tenants: neither.
    select (array_agg(t.id))[1] into v_tenant from tenants t
     where t.stripe_account_id = p_stripe_account or t.stripe_pending_account_id = p_stripe_account
    having count(*) = 1;
  end if;
  -- No conflict target: the partial unique index that applies to this provider decides.
  insert into webhook_events (tenant_id, provider, dedupe_key, type, payload, provider_created_at)
  values (v_tenant, p_provider, p_dedupe_key, p_type, p_payload, p_provider_created_at)
  on conflict do nothing
  returning webhook_events.id into v_id;
  id := v_id;
  duplicate := v_id is null;
  return next;
end $function$;
