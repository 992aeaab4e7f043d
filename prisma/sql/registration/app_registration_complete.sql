-- Whether a reservation's guest register is complete enough to check in (a stub: only a `none` facility is; issue 31).
CREATE OR REPLACE FUNCTION public.app_registration_complete(p_tenant uuid, p_reservation uuid)
 RETURNS boolean
 LANGUAGE sql
 STABLE
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  select coalesce((select f.registration = 'none'
                     from reservations r
                     join rooms ro on ro.tenant_id = r.tenant_id and ro.id = r.room_id
                     join facilities f on f.tenant_id = ro.tenant_id and f.id = ro.facility_id
                    where r.tenant_id = p_tenant and r.id = p_reservation), false)
$function$;
