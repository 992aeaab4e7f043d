-- Whether the guest link's keys are hidden from it: at a self check-in facility, until the stay is checked in (issue 31).
CREATE OR REPLACE FUNCTION public.app_guest_keys_hidden()
 RETURNS boolean
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  select coalesce((select f.check_in_mode = 'self'
                          and not exists (select 1 from check_ins c
                                           where c.tenant_id = r.tenant_id and c.reservation_id = r.id)
                     from app_guest_link_reservation() l
                     join reservations r on r.tenant_id = l.tenant_id and r.id = l.reservation_id
                     join rooms ro on ro.tenant_id = r.tenant_id and ro.id = r.room_id
                     join facilities f on f.tenant_id = ro.tenant_id and f.id = ro.facility_id), true)
$function$;
grant execute on function app_guest_keys_hidden() to app_anon;
