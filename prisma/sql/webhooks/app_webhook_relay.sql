-- Hands up to p_limit stored, unqueued events to the queue (oldest first); returns how many.
CREATE OR REPLACE FUNCTION public.app_webhook_relay(p_limit integer)
 RETURNS integer
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_ids uuid[];
begin
  select array_agg(id) into v_ids
  from (select e.id from webhook_events e where e.queued_at is null
        order by e.received_at limit p_limit for update skip locked) batch;
  if v_ids is null then
    return 0;
  end if;
  perform app_enqueue_jobs('process_webhook_event',
    array(select jsonb_build_object('eventId', x) from unnest(v_ids) x), 10);
  update webhook_events set queued_at = now() where id = any (v_ids);
  return cardinality(v_ids);
end $function$;
