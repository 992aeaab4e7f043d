-- The one place a presented API key's hash becomes a key (id, tenant, name): the API's hot path, before the tenant
-- is known.
CREATE OR REPLACE FUNCTION public.app_api_key_by_hash(p_secret_hash bytea)
 RETURNS TABLE(api_key_id uuid, tenant_id uuid, name text)
 LANGUAGE sql
 STABLE
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  select k.id, k.tenant_id, k.name
    from public.api_key_secrets s
    join public.api_keys k on k.tenant_id = s.tenant_id and k.id = s.api_key_id
   where s.secret_hash = p_secret_hash and k.revoked_at is null
$function$;
