-- The room whose busy periods an iCal export token opens, found before any tenant is known.
CREATE OR REPLACE FUNCTION public.app_ical_export_room(p_token text)
 RETURNS TABLE(tenant_id uuid, room_id uuid)
 LANGUAGE sql
 STABLE
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  select t.tenant_id, t.room_id from ical_export_tokens t where t.token_hash = digest(p_token, 'sha256')
$function$;
