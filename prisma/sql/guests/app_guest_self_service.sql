-- What the guest link's stay still needs and allows (check-in mode and opening, register, payment), for the guest page.
CREATE OR REPLACE FUNCTION public.app_guest_self_service()
 RETURNS TABLE(check_in_mode check_in_mode, self_check_in_opens_at timestamp with time zone, checked_in boolean, registration registration_mode, registration_complete boolean, payment_mode payment_mode, paid boolean)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  select f.check_in_mode,
         app_self_check_in_opens_at(r.tenant_id, r.id),
         exists (select 1 from check_ins c where c.tenant_id = r.tenant_id and c.reservation_id = r.id),
         f.registration,
         app_registration_complete(r.tenant_id, r.id),
         f.payment_mode,
         r.paid_at is not null
    from app_guest_link_reservation() l
    join reservations r on r.tenant_id = l.tenant_id and r.id = l.reservation_id
    join rooms ro on ro.tenant_id = r.tenant_id and ro.id = r.room_id
    join facilities f on f.tenant_id = ro.tenant_id and f.id = ro.facility_id
   where l.status not in ('cancelled', 'checked_out')
$function$;
grant execute on function app_guest_self_service() to app_anon;
