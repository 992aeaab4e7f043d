-- A lease of up to p_want tokens from a token bucket (the same buckets as app_rate_take: bursts up to p_capacity,
-- refilled at p_per_second).
CREATE OR REPLACE FUNCTION public.app_rate_lease(p_bucket text, p_capacity integer, p_per_second double precision, p_want integer)
 RETURNS TABLE(granted integer, retry_after integer)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_tokens double precision;
begin
  if p_want < 1 or p_capacity < 1 or p_per_second <= 0 then
    raise exception 'app_rate_lease needs p_want, p_capacity and p_per_second above zero' using errcode = '22023';
  end if;
  insert into public.rate_buckets as b (bucket, tokens, updated_at) values (p_bucket, p_capacity, clock_timestamp())
  on conflict (bucket) do update
    set tokens = least(p_capacity::double precision,
                       b.tokens + extract(epoch from (clock_timestamp() - b.updated_at)) * p_per_second),
        updated_at = clock_timestamp()
  returning b.tokens into v_tokens;
  granted := least(p_want, greatest(0, floor(v_tokens)))::integer;
  if granted > 0 then
    update public.rate_buckets set tokens = v_tokens - granted where bucket = p_bucket;
    retry_after := 0;
  else
    retry_after := greatest(1, ceil((1 - v_tokens) / p_per_second)::integer);
  end if;
  return next;
end $function$;
