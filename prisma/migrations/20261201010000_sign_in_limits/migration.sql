-- Sign-in limits per (account, client address) instead of an account-wide lock, and pruning of the
-- rate-limit tables.

-- 1. No account-wide lock: an outsider could keep it forever (one wrong attempt per lock period
--    re-locked the owner out). Failed sign-ins are counted in token buckets (rate_buckets) per
--    account and address, and per address; `user-unlock` clears an account's buckets.
alter table users drop column failed_sign_ins, drop column locked_until;

-- 2. Gives one token back (a sign-in that succeeded costs nothing), never beyond the capacity.
create function app_rate_give(p_bucket text, p_capacity integer)
  returns void
  language sql volatile
  security definer
  set search_path = pg_catalog, public
as $$
  update public.rate_buckets set tokens = least(p_capacity::double precision, tokens + 1) where bucket = p_bucket;
$$;

-- Takes one token from every bucket, or from none: when any bucket is empty nothing is spent (tokens
-- taken from the others in this call are given back). Buckets are locked in name order, so
-- concurrent callers cannot deadlock. Returns what each bucket holds afterwards, in the order given,
-- so a caller can tell that this take emptied a bucket.
create function app_rate_take_all(p_buckets text[], p_capacities integer[], p_per_seconds double precision[])
  returns table (allowed boolean, retry_after integer, tokens double precision[])
  language plpgsql volatile
  security definer
  set search_path = pg_catalog, public
as $$
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
end $$;

revoke all on function app_rate_take_all(text[], integer[], double precision[]) from public;
revoke all on function app_rate_give(text, integer) from public;
grant execute on function app_rate_take_all(text[], integer[], double precision[]) to app_service;
grant execute on function app_rate_give(text, integer) to app_service;

-- 3. Rate-limit rows are created for every token and address seen, so they are pruned on a schedule
--    (the worker's `prune_rate_limits` cron task): fixed windows that started over an hour ago (every
--    window in use is shorter), and buckets idle for an hour (every bucket in use refills completely
--    within that: the API's in 3 s, sign-in's in 15 minutes), which are full again — deleting one is
--    the same as keeping it. At most p_limit rows of each table per call, so a backlog is deleted in
--    short transactions; the caller repeats while a call deletes its limit. No index on the times:
--    it would be rewritten on every hit of the hot paths; a scan every ten minutes is cheaper.
create function app_rate_prune(p_limit integer)
  returns table (windows integer, buckets integer)
  language plpgsql volatile
  security definer
  set search_path = pg_catalog, public
as $$
begin
  delete from public.rate_limits r
   where r.ctid = any (array(select l.ctid from public.rate_limits l where l.window_start < now() - interval '1 hour' limit p_limit))
     and r.window_start < now() - interval '1 hour';
  get diagnostics windows = row_count;
  delete from public.rate_buckets b
   where b.ctid = any (array(select k.ctid from public.rate_buckets k where k.updated_at < now() - interval '1 hour' limit p_limit))
     and b.updated_at < now() - interval '1 hour';
  get diagnostics buckets = row_count;
  return next;
end $$;
revoke all on function app_rate_prune(integer) from public;
grant execute on function app_rate_prune(integer) to app_service;
