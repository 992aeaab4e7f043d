-- A signed delivery whose JSON nests too deep to be parsed or stored as jsonb (a 10,000-deep array failed in the
-- route with a 500 and was lost).
CREATE OR REPLACE FUNCTION public.app_webhook_store_unparsed(p_provider webhook_provider, p_dedupe_key text, p_tenant_id uuid, p_reason text)
 RETURNS TABLE(id uuid, duplicate boolean)
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
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
end $function$;
