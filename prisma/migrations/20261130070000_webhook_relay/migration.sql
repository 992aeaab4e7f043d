-- 1. graphile-worker's add_jobs runs its statements through PL/pgSQL's plan cache. After five
-- calls a session switches to generic plans, and the generic plan of its "clear the key of a
-- locked job" UPDATE scans the whole jobs table: each enqueue then costs more the longer the queue
-- is (measured: 1.2 ms of server CPU with an empty queue, 2.4 ms at 9 000 waiting jobs). Custom
-- plans keep it flat. Set on our wrappers, the setting holds for the calls nested in them.
alter function app_enqueue_job(text, jsonb, text, text, timestamptz, integer) set plan_cache_mode = force_custom_plan;

-- 2. The webhook inbox no longer adds a job per delivery inside the acknowledging transaction
-- (graphile's add_job was most of that transaction's cost). A delivery is stored with
-- queued_at null; the worker's relay hands stored events to the queue in batches — one add_jobs
-- call for many events, in the same transaction that marks them queued, so each stored event gets
-- exactly one job, whichever worker relays it. Acknowledged still means committed.
alter table webhook_events add column queued_at timestamptz;
update webhook_events set queued_at = received_at; -- rows stored before this migration have their job
create index webhook_events_unqueued on webhook_events (received_at) where queued_at is null;

create function app_enqueue_jobs(task text, payloads jsonb[], max_attempts integer)
  returns void
  language plpgsql
  security definer
  set search_path = pg_catalog
  set plan_cache_mode = force_custom_plan
as $$
begin
  perform graphile_worker.add_jobs(array(
    select (task, p::json, null, null, max_attempts::smallint, null, null, null)::graphile_worker.job_spec
    from unnest(payloads) p));
end $$;
revoke all on function app_enqueue_jobs(text, jsonb[], integer) from public;
grant execute on function app_enqueue_jobs(text, jsonb[], integer) to app_service;

-- Hands up to p_limit stored, unqueued events to the queue (oldest first); returns how many.
-- SKIP LOCKED: relays running at once in several workers take disjoint batches.
create function app_webhook_relay(p_limit integer)
  returns integer
  language plpgsql volatile
  set search_path = pg_catalog, public
as $$
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
end $$;
revoke all on function app_webhook_relay(integer) from public;
grant execute on function app_webhook_relay(integer) to app_service;

-- The acknowledging transaction: resolve the tenant of a Stripe Connect account (when no tenant is
-- named) and store the event once. Nothing else.
create or replace function app_webhook_store(p_provider webhook_provider, p_dedupe_key text, p_type text, p_payload jsonb,
                                             p_provider_created_at timestamptz, p_tenant_id uuid, p_stripe_account text)
  returns table (id uuid, duplicate boolean)
  language plpgsql volatile
  set search_path = pg_catalog, public
as $$
declare
  v_tenant uuid := p_tenant_id;
  v_id uuid;
begin
  if v_tenant is null and p_stripe_account is not null then
    select t.id into v_tenant from tenants t where t.stripe_account_id = p_stripe_account;
  end if;
  insert into webhook_events (tenant_id, provider, dedupe_key, type, payload, provider_created_at)
  values (v_tenant, p_provider, p_dedupe_key, p_type, p_payload, p_provider_created_at)
  on conflict (provider, dedupe_key) do nothing
  returning webhook_events.id into v_id;
  id := v_id;
  duplicate := v_id is null;
  return next;
end $$;
