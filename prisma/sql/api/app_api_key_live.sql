-- Raises UN401 unless the key is unrevoked and of p_tenant_id, the transaction's tenant (app.tenant_id): run as a
-- statement of the operation's own transaction, right after the one that picks the role and tenant, so a request
-- whose transaction starts after a revocation committed is refused.
CREATE OR REPLACE FUNCTION public.app_api_key_live(p_tenant_id uuid, p_api_key_id uuid)
 RETURNS boolean
 LANGUAGE plpgsql
 STABLE
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  perform 1 from public.api_keys k
   where k.tenant_id = p_tenant_id and k.id = p_api_key_id and k.revoked_at is null
     and p_tenant_id = public.app_current_tenant();
  if not found then
    raise exception 'api key revoked or unknown' using errcode = 'UN401';
  end if;
  return true;
end $function$;
