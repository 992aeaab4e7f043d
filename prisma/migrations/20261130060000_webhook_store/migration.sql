-- The webhook inbox's hot path in one statement: resolve the tenant of a Stripe Connect account
-- (when no tenant is named), store the event once, and queue its processing — all inside the
-- caller's transaction. Measured by `npm run bench:webhooks`: it replaced two transactions.
create function app_webhook_store(p_provider webhook_provider, p_dedupe_key text, p_type text, p_payload jsonb,
                                  p_provider_created_at timestamptz, p_tenant_id uuid, p_stripe_account text)
  returns table (id uuid, duplicate boolean)
  language plpgsql volatile
  set search_path = pg_catalog, public
as $$
declare
  v_tenant uuid := p_tenant_id;
  v_id uuid;
begin
  if v_tenant is null and p_stripe_account is not null then
    select t.id into v_tenant from tenants t where t.stripe_account_id = p_stripe_account;
  end if;
  insert into webhook_events (tenant_id, provider, dedupe_key, type, payload, provider_created_at)
  values (v_tenant, p_provider, p_dedupe_key, p_type, p_payload, p_provider_created_at)
  on conflict (provider, dedupe_key) do nothing
  returning webhook_events.id into v_id;
  if v_id is null then
    id := null;
    duplicate := true;
    return next;
    return;
  end if;
  perform app_enqueue_job('process_webhook_event', jsonb_build_object('eventId', v_id), max_attempts => 10);
  id := v_id;
  duplicate := false;
  return next;
end $$;
grant execute on function app_webhook_store(webhook_provider, text, text, jsonb, timestamptz, uuid, text) to app_service;
