-- Releasing a dead worker's jobs (decision 005), in one transaction (issue 12, item 9).
CREATE OR REPLACE FUNCTION public.app_reap_dead_workers(p_dead_after_seconds integer)
 RETURNS text[]
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_ids text[];
begin
  with dead as (
    delete from public.worker_heartbeats where beat_at < now() - make_interval(secs => p_dead_after_seconds)
    returning queue_worker_ids
  )
  select coalesce(array_agg(id), '{}') into v_ids from dead, unnest(dead.queue_worker_ids) as id;
  if cardinality(v_ids) > 0 then
    perform graphile_worker.force_unlock_workers(v_ids);
  end if;
  return v_ids;
end $function$;
