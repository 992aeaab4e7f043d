-- One token bucket, refilled one way: app_rate_take (one token, for sign-in and the routes' limits) is now a lease
-- of one token (app_rate_lease, the API's hot path).
CREATE OR REPLACE FUNCTION public.app_rate_take(p_bucket text, p_capacity integer, p_per_second double precision)
 RETURNS TABLE(allowed boolean, retry_after integer)
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  select lease.granted = 1, lease.retry_after from public.app_rate_lease(p_bucket, p_capacity, p_per_second, 1) as lease
$function$;
