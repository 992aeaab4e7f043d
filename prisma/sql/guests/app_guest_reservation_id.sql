-- The reservation of the session's guest link while its stay is live, for the guest policies.
CREATE OR REPLACE FUNCTION public.app_guest_reservation_id()
 RETURNS uuid
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  select l.reservation_id from app_guest_link_reservation() l where l.status not in ('cancelled', 'checked_out')
$function$;
