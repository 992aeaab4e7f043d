-- Adds one graphile-worker job per payload, in one call.
CREATE OR REPLACE FUNCTION public.app_enqueue_jobs(task text, payloads jsonb[], max_attempts integer)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog'
 SET plan_cache_mode TO 'force_custom_plan'
AS $function$
begin
  perform graphile_worker.add_jobs(array(
    select (task, p::json, null, null, max_attempts::smallint, null, null, null)::graphile_worker.job_spec
    from unnest(payloads) p));
end $function$;
