-- Whether a key holds its door: a live guest or backup key of a stay, or one whose offline code stays valid on its
-- lock until its end, revoked or not.
CREATE OR REPLACE FUNCTION public.app_key_is_offline(p_tenant_id uuid, p_key_id uuid)
 RETURNS boolean
 LANGUAGE sql
 STABLE
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  select exists (select 1 from key_lock_codes d where d.tenant_id = p_tenant_id and d.key_id = p_key_id and d.offline)
$function$;
