-- When a guest may check a reservation in from the phone: self_check_in_opens_hours before its start (issue 31).
CREATE OR REPLACE FUNCTION public.app_self_check_in_opens_at(p_tenant_id uuid, p_reservation_id uuid)
 RETURNS timestamp with time zone
 LANGUAGE sql
 STABLE
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  select r.starts_at - make_interval(hours => f.self_check_in_opens_hours)
    from reservations r
    join rooms ro on ro.tenant_id = r.tenant_id and ro.id = r.room_id
    join facilities f on f.tenant_id = ro.tenant_id and f.id = ro.facility_id
   where r.tenant_id = p_tenant_id and r.id = p_reservation_id
$function$;
