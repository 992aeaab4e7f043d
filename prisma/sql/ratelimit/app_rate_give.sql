-- Gives one token back (a sign-in that succeeded costs nothing), never beyond the capacity.
CREATE OR REPLACE FUNCTION public.app_rate_give(p_bucket text, p_capacity integer)
 RETURNS void
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  update public.rate_buckets set tokens = least(p_capacity::double precision, tokens + 1) where bucket = p_bucket;
$function$;
