-- Takes one token from every bucket, or from none: when any bucket is empty nothing is spent (tokens taken from the
-- others in this call are given back).
CREATE OR REPLACE FUNCTION public.app_rate_take_all(p_buckets text[], p_capacities integer[], p_per_seconds double precision[])
 RETURNS TABLE(allowed boolean, retry_after integer, tokens double precision[])
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_n integer := coalesce(array_length(p_buckets, 1), 0);
  v_i integer;
  v_take record;
  v_taken integer[] := '{}';
begin
  if v_n = 0 or array_length(p_capacities, 1) is distinct from v_n or array_length(p_per_seconds, 1) is distinct from v_n then
    raise exception 'app_rate_take_all needs one capacity and one rate per bucket' using errcode = '22023';
  end if;
  allowed := true;
  retry_after := 0;
  for v_i in select o.i from unnest(p_buckets) with ordinality as o (bucket, i) order by o.bucket, o.i loop
    select * into v_take from public.app_rate_take(p_buckets[v_i], p_capacities[v_i], p_per_seconds[v_i]);
    if v_take.allowed then
      v_taken := v_taken || v_i;
    else
      allowed := false;
      retry_after := greatest(retry_after, v_take.retry_after);
    end if;
  end loop;
  if not allowed then
    foreach v_i in array v_taken loop
      perform public.app_rate_give(p_buckets[v_i], p_capacities[v_i]);
    end loop;
  end if;
  select array_agg(coalesce(b.tokens, 0) order by o.i) into tokens
    from unnest(p_buckets) with ordinality as o (bucket, i) left join public.rate_buckets b on b.bucket = o.bucket;
  return next;
end $function$;
