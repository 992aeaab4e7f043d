-- Deletes a tenant's booking requests that never became a booking, a day after their code expired (their code
-- mail goes with them), so a guest's details typed on the site are not kept. Returns how many.
CREATE OR REPLACE FUNCTION public.app_sweep_booking_requests(p_tenant_id uuid)
 RETURNS integer
 LANGUAGE sql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  with gone as (
    delete from booking_requests r
     where r.tenant_id = p_tenant_id and r.status <> 'confirmed' and r.code_expires_at < now() - interval '1 day'
    returning 1
  )
  select count(*)::int from gone
$function$;
