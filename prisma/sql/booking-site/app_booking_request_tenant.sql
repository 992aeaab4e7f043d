-- The tenant of a public booking request, found by its id through booking_request_ids.
CREATE OR REPLACE FUNCTION public.app_booking_request_tenant(p_request_id uuid)
 RETURNS uuid
 LANGUAGE sql
 STABLE
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  select l.tenant_id from booking_request_ids l where l.booking_request_id = p_request_id
$function$;
