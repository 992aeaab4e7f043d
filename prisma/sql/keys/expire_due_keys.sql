-- Ends one tenant's live keys whose window is over (up to p_limit), each through app_end_key.
CREATE OR REPLACE FUNCTION public.expire_due_keys(p_tenant_id uuid, p_limit integer DEFAULT 500)
 RETURNS integer
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v record;
  n integer := 0;
begin
  for v in select id from access_keys
    where tenant_id = p_tenant_id and status in ('pre_issued', 'active') and expires_at <= now()
    order by expires_at limit p_limit for update skip locked
  loop
    perform app_end_key(p_tenant_id, v.id, 'expired', 'stay_ended', 'system', null, 'expiry');
    n := n + 1;
  end loop;
  return n;
end $function$;
