-- Issue 28, item 10(d): a signed delivery whose JSON nests too deep to be parsed or stored as jsonb
-- (a 10,000-deep array failed in the route with a 500 and was lost). It is kept in the inbox as
-- `failed` with a reason, without its body, so the webhook log shows that it came; it is never
-- handed to the queue (queued_at is set), since there is nothing to process. A provider's retry of
-- the same bytes is the same dedupe key (a hash of the body): one row, however often it comes.
create function app_webhook_store_unparsed(p_provider webhook_provider, p_dedupe_key text, p_tenant_id uuid,
                                           p_reason text)
  returns table (id uuid, duplicate boolean)
  language plpgsql volatile
  set search_path = pg_catalog, public
as $$
declare
  v_id uuid;
begin
  insert into webhook_events (tenant_id, provider, dedupe_key, type, payload, status, reason, processed_at, queued_at)
  values (p_tenant_id, p_provider, p_dedupe_key, 'unparsed', '{}'::jsonb, 'failed', p_reason, now(), now())
  on conflict do nothing
  returning webhook_events.id into v_id;
  id := v_id;
  duplicate := v_id is null;
  return next;
end $$;
grant execute on function app_webhook_store_unparsed(webhook_provider, text, uuid, text) to app_service;
