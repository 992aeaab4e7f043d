-- Releasing a dead worker's jobs (decision 005), in one transaction (issue 12, item 9). The reaper
-- deleted the dead worker's heartbeat in one transaction and unlocked its jobs in another: a reaper
-- that died in between forgot the dead worker for good, and its jobs stayed locked for four hours
-- (graphile-worker's own timeout) — a guest stuck on "Activating…".
create function app_reap_dead_workers(p_dead_after_seconds integer)
  returns text[]
  language plpgsql volatile
  security definer
  set search_path = pg_catalog, public
as $$
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
end $$;
revoke all on function app_reap_dead_workers(integer) from public;
grant execute on function app_reap_dead_workers(integer) to app_service;
