-- The language of the room's facility (a tenant-wide mail: its first facility's).
CREATE OR REPLACE FUNCTION public.app_message_locale(p_tenant_id uuid, p_room_id uuid)
 RETURNS text
 LANGUAGE sql
 STABLE
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  select coalesce((select f.default_language from rooms ro join facilities f on f.tenant_id = ro.tenant_id and f.id = ro.facility_id
                    where ro.tenant_id = p_tenant_id and ro.id = p_room_id),
                  (select f.default_language from facilities f where f.tenant_id = p_tenant_id order by f.created_at limit 1),
                  'en')
$function$;
