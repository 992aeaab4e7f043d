-- Rate-limit rows are created for every token and address seen, so they are pruned on a schedule (the worker's
-- `prune_rate_limits` cron task): fixed windows that started over an hour ago (every window in use is shorter), and
-- buckets idle for an hour (every bucket in use refills completely within that: the API's in 3 s, sign-in's in 15
-- minutes), which are full again — deleting one is the same as keeping it.
CREATE OR REPLACE FUNCTION public.app_rate_prune(p_limit integer)
 RETURNS TABLE(windows integer, buckets integer)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
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
end $function$;
