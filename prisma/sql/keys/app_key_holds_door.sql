-- Whether a key holds its door: a live guest or backup key of a stay, or an offline code still valid.
CREATE OR REPLACE FUNCTION public.app_key_holds_door(p_key access_keys)
 RETURNS boolean
 LANGUAGE sql
 STABLE
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  select p_key.kind in ('guest', 'backup') and p_key.reservation_id is not null
     and (p_key.status in ('pre_issued', 'active') or app_key_is_offline(p_key.tenant_id, p_key.id))
$function$;
