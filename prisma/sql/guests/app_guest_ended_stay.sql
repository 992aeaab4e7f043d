-- What the guest page shows of a stay that has ended or was cancelled (the link's reservation).
CREATE OR REPLACE FUNCTION public.app_guest_ended_stay()
 RETURNS TABLE(status reservation_status, room_label text, starts_at timestamp with time zone, ends_at timestamp with time zone, facility_name text, time_zone text, address text, phone text, email text)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  select r.status, r.room_label_snapshot, r.starts_at, r.ends_at, f.name, f.time_zone, f.address, f.phone, f.email
    from app_guest_link_reservation() l
    join reservations r on r.tenant_id = l.tenant_id and r.id = l.reservation_id
    join rooms ro on ro.tenant_id = r.tenant_id and ro.id = r.room_id
    join facilities f on f.tenant_id = ro.tenant_id and f.id = ro.facility_id
   where l.status in ('cancelled', 'checked_out')
$function$;
revoke all on function public.app_guest_ended_stay() from public;
grant execute on function public.app_guest_ended_stay() to app_anon;
