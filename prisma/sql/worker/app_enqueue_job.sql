-- Adds one graphile-worker job (the only door from our SQL into the queue's schema).
CREATE OR REPLACE FUNCTION public.app_enqueue_job(task text, payload jsonb, queue_name text DEFAULT NULL::text, job_key text DEFAULT NULL::text, run_at timestamp with time zone DEFAULT NULL::timestamp with time zone, max_attempts integer DEFAULT NULL::integer)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog'
 SET plan_cache_mode TO 'force_custom_plan'
AS $function$
begin
  perform graphile_worker.add_job(task, payload::json, queue_name => queue_name, job_key => job_key,
                                  run_at => run_at, max_attempts => max_attempts);
end $function$;
