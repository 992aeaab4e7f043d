-- Keys and check-in: issuance in SQL, the outbox per key, tenant-scoped service transactions,
-- the guest's view through its link, rate limits and the check-in lead time.

-- 1. The service role is confined to one tenant whenever a transaction names one
--    (asService({ tenantId })), and sees everything only when it names none (webhook routing, sweeps).
do $$
declare t text;
begin
  foreach t in array array['facilities', 'rooms', 'memberships', 'guests', 'booking_groups', 'reservations',
    'check_ins', 'guest_links', 'access_keys', 'audit_events', 'api_keys', 'provider_secrets', 'subscriptions',
    'billing_failures', 'incidents', 'booking_sources', 'webhook_events']
  loop
    execute format('drop policy service_all on %I', t);
    execute format('create policy service_all on %I to app_service
      using (app_current_tenant() is null or tenant_id = app_current_tenant())
      with check (app_current_tenant() is null or tenant_id = app_current_tenant())', t);
  end loop;
  drop policy service_all on tenants;
  create policy service_all on tenants to app_service
    using (app_current_tenant() is null or id = app_current_tenant())
    with check (app_current_tenant() is null or id = app_current_tenant());
end $$;

-- 2. How long before a stay starts its pre-issued key becomes valid.
alter table facilities add column key_lead_minutes integer not null default 120 check (key_lead_minutes between 0 and 10080);
alter table access_keys add column vendor_error text;
alter table access_keys add column pin_revealed_at timestamptz;

-- 3. The guest: app_anon sees exactly the rows reachable from the guest link whose token hash
--    the transaction names, and only while the link is valid. The subqueries below run under
--    app_anon's own policy on guest_links, so they can only ever see that one link.
create function app_guest_token_hash() returns bytea
  language sql stable
  set search_path = pg_catalog
as $$ select decode(nullif(current_setting('app.guest_token_hash', true), ''), 'hex') $$;
grant execute on function app_guest_token_hash() to app_anon, app_authenticated, app_service;

grant select (tenant_id, id, reservation_id, token_hash, expires_at) on guest_links to app_anon;
grant select (tenant_id, id, room_id, starts_at, ends_at, status, room_label_snapshot) on reservations to app_anon;
grant select (tenant_id, id, facility_id, label) on rooms to app_anon;
grant select (tenant_id, id, name, time_zone) on facilities to app_anon;
grant select (tenant_id, id, reservation_id, check_in_id, status, pin, valid_from, expires_at, vendor_sync, revoked_reason, created_at)
  on access_keys to app_anon;

create policy guest_link on guest_links to app_anon
  using (token_hash = app_guest_token_hash() and expires_at > now());
create policy guest_link on reservations to app_anon
  using (id in (select gl.reservation_id from guest_links gl));
create policy guest_link on access_keys to app_anon
  using (reservation_id in (select gl.reservation_id from guest_links gl));
create policy guest_link on rooms to app_anon
  using (id in (select r.room_id from reservations r where r.id in (select gl.reservation_id from guest_links gl)));
create policy guest_link on facilities to app_anon
  using (id in (select ro.facility_id from rooms ro join reservations r on r.room_id = ro.id
                where r.id in (select gl.reservation_id from guest_links gl)));

-- 4. The outbox, with a queue per key: a key's program and remove commands run in order.
drop function app_enqueue_job(text, jsonb, text, timestamptz, integer);
create function app_enqueue_job(task text, payload jsonb, queue_name text default null, job_key text default null,
                                run_at timestamptz default null, max_attempts integer default null)
  returns void
  language plpgsql
  security definer
  set search_path = pg_catalog
as $$
begin
  perform graphile_worker.add_job(task, payload::json, queue_name => queue_name, job_key => job_key,
                                  run_at => run_at, max_attempts => max_attempts);
end $$;
revoke all on function app_enqueue_job(text, jsonb, text, text, timestamptz, integer) from public;
grant execute on function app_enqueue_job(text, jsonb, text, text, timestamptz, integer) to app_service;

-- 5. A cryptographically random PIN of n digits (pgcrypto), without modulo bias.
create function app_random_pin(n integer) returns text
  language plpgsql volatile
  set search_path = pg_catalog, public
as $$
declare
  digits text := '';
  b integer;
begin
  while length(digits) < n loop
    b := get_byte(gen_random_bytes(1), 0);
    if b < 250 then digits := digits || (b % 10)::text; end if;
  end loop;
  return digits;
end $$;
grant execute on function app_random_pin(integer) to app_service;

-- 6. Audit rows, one shape for every writer in SQL.
create function app_audit(p_tenant_id uuid, p_actor_type actor_type, p_actor_id text, p_actor_label text, p_action text,
                          p_subject_type text, p_subject_id uuid, p_room_id uuid, p_reason text, p_metadata jsonb default '{}')
  returns void
  language sql volatile
  set search_path = pg_catalog, public
as $$
  insert into audit_events (tenant_id, actor_type, actor_id, actor_label, action, subject_type, subject_id, room_id, reason, metadata)
  values (p_tenant_id, p_actor_type, p_actor_id, p_actor_label, p_action, p_subject_type, p_subject_id, p_room_id, p_reason, coalesce(p_metadata, '{}'));
$$;
grant execute on function app_audit(uuid, actor_type, text, text, text, text, uuid, uuid, text, jsonb) to app_service;

-- Inserts a live key with a fresh random PIN, retrying when the PIN is already live on the room.
create function app_insert_key(p_tenant_id uuid, p_reservation_id uuid, p_check_in_id uuid, p_room_id uuid,
                               p_status key_status, p_valid_from timestamptz, p_expires_at timestamptz)
  returns access_keys
  language plpgsql volatile
  set search_path = pg_catalog, public
as $$
declare
  v_key access_keys;
  v_len integer;
  v_constraint text;
begin
  select pin_length into strict v_len from rooms where tenant_id = p_tenant_id and id = p_room_id;
  for attempt in 1..50 loop
    begin
      insert into access_keys (tenant_id, reservation_id, check_in_id, room_id, status, pin, valid_from, expires_at)
      values (p_tenant_id, p_reservation_id, p_check_in_id, p_room_id, p_status, app_random_pin(v_len), p_valid_from, p_expires_at)
      returning * into v_key;
      perform app_enqueue_job('vendor_program_key', jsonb_build_object('tenantId', p_tenant_id, 'keyId', v_key.id),
                              queue_name => 'key:' || v_key.id, max_attempts => 8);
      return v_key;
    exception when unique_violation then
      get stacked diagnostics v_constraint = constraint_name;
      if v_constraint <> 'access_keys_one_live_pin_per_room' then raise; end if;
    end;
  end loop;
  raise exception 'no free PIN on room %', p_room_id using errcode = 'UK003';
end $$;
grant execute on function app_insert_key(uuid, uuid, uuid, uuid, key_status, timestamptz, timestamptz) to app_service;

-- Ends a live key (revoked or expired) with its audit row and the vendor removal in the outbox.
create function app_end_key(p_tenant_id uuid, p_key_id uuid, p_status key_status, p_reason text,
                            p_actor_type actor_type, p_actor_id text, p_actor_label text)
  returns access_keys
  language plpgsql volatile
  set search_path = pg_catalog, public
as $$
declare
  v_key access_keys;
begin
  update access_keys
     set status = p_status,
         revoked_reason = case when p_status = 'revoked' then p_reason else revoked_reason end,
         revoked_at = case when p_status = 'revoked' then now() else revoked_at end,
         vendor_sync = 'pending', vendor_error = null
   where tenant_id = p_tenant_id and id = p_key_id
  returning * into strict v_key;
  perform app_audit(p_tenant_id, p_actor_type, p_actor_id, p_actor_label,
                    case when p_status = 'revoked' then 'key.revoked' else 'key.expired' end,
                    'access_key', v_key.id, v_key.room_id, p_reason,
                    jsonb_build_object('reservationId', v_key.reservation_id, 'checkInId', v_key.check_in_id));
  perform app_enqueue_job('vendor_remove_key', jsonb_build_object('tenantId', p_tenant_id, 'keyId', v_key.id),
                          queue_name => 'key:' || v_key.id, max_attempts => 8);
  return v_key;
end $$;
grant execute on function app_end_key(uuid, uuid, key_status, text, actor_type, text, text) to app_service;

-- 7. Issuance for a check-in, the last of three layers: under a per-check-in advisory lock, expire
--    an active key past its end (else the unique index would block its successor), then return the
--    live key or insert one.
create function issue_checkin_key(p_tenant_id uuid, p_check_in_id uuid, p_actor_type actor_type, p_actor_id text, p_actor_label text)
  returns access_keys
  language plpgsql volatile
  set search_path = pg_catalog, public
as $$
declare
  v_key access_keys;
  v_res reservations;
  v_stale uuid;
begin
  perform pg_advisory_xact_lock(hashtextextended(p_check_in_id::text, 0));
  select r.* into v_res from check_ins c join reservations r on r.tenant_id = c.tenant_id and r.id = c.reservation_id
   where c.tenant_id = p_tenant_id and c.id = p_check_in_id;
  if not found then
    raise exception 'check-in % not found', p_check_in_id using errcode = 'UN404';
  end if;
  for v_stale in select id from access_keys
    where tenant_id = p_tenant_id and check_in_id = p_check_in_id and status = 'active' and expires_at <= now()
  loop
    perform app_end_key(p_tenant_id, v_stale, 'expired', 'stay_ended', 'system', null, 'expiry');
  end loop;
  select * into v_key from access_keys where tenant_id = p_tenant_id and check_in_id = p_check_in_id and status = 'active';
  if found then return v_key; end if;
  if v_res.status = 'cancelled' or v_res.ends_at <= now() then
    raise exception 'reservation % cannot have a key', v_res.id using errcode = 'UK004';
  end if;
  v_key := app_insert_key(p_tenant_id, v_res.id, p_check_in_id, v_res.room_id, 'active', least(now(), v_res.starts_at), v_res.ends_at);
  perform app_audit(p_tenant_id, p_actor_type, p_actor_id, p_actor_label, 'key.issued', 'access_key', v_key.id, v_key.room_id, null,
                    jsonb_build_object('reservationId', v_res.id, 'checkInId', p_check_in_id));
  return v_key;
end $$;
grant execute on function issue_checkin_key(uuid, uuid, actor_type, text, text) to app_service;

-- 8. A pre-issued key for a reservation (valid from the facility's lead before the start), unless it has one.
create function pre_issue_key(p_tenant_id uuid, p_reservation_id uuid, p_actor_type actor_type, p_actor_id text, p_actor_label text)
  returns access_keys
  language plpgsql volatile
  set search_path = pg_catalog, public
as $$
declare
  v_key access_keys;
  v_res reservations;
  v_lead integer;
begin
  perform pg_advisory_xact_lock(hashtextextended(p_reservation_id::text, 1));
  select * into v_key from access_keys where tenant_id = p_tenant_id and reservation_id = p_reservation_id and status = 'pre_issued';
  if found then return v_key; end if;
  select r.* into strict v_res from reservations r where r.tenant_id = p_tenant_id and r.id = p_reservation_id;
  select f.key_lead_minutes into strict v_lead from rooms ro join facilities f on f.tenant_id = ro.tenant_id and f.id = ro.facility_id
   where ro.tenant_id = p_tenant_id and ro.id = v_res.room_id;
  v_key := app_insert_key(p_tenant_id, v_res.id, null, v_res.room_id, 'pre_issued',
                          v_res.starts_at - make_interval(mins => v_lead), v_res.ends_at);
  perform app_audit(p_tenant_id, p_actor_type, p_actor_id, p_actor_label, 'key.pre_issued', 'access_key', v_key.id, v_key.room_id, null,
                    jsonb_build_object('reservationId', v_res.id));
  return v_key;
end $$;
grant execute on function pre_issue_key(uuid, uuid, actor_type, text, text) to app_service;

-- 9. The expiry sweep: every live key past its end becomes expired (audited, removal queued).
create function expire_due_keys(p_limit integer default 500) returns integer
  language plpgsql volatile
  set search_path = pg_catalog, public
as $$
declare
  v record;
  n integer := 0;
begin
  for v in select tenant_id, id from access_keys
    where status in ('pre_issued', 'active') and expires_at <= now()
    order by expires_at limit p_limit for update skip locked
  loop
    perform app_end_key(v.tenant_id, v.id, 'expired', 'stay_ended', 'system', null, 'expiry');
    n := n + 1;
  end loop;
  return n;
end $$;
grant execute on function expire_due_keys(integer) to app_service;

-- 10. Rate limits counted in PostgreSQL (fixed windows), so they hold across processes.
create table rate_limits (
  bucket text not null,
  window_start timestamptz not null,
  hits integer not null default 0,
  primary key (bucket, window_start)
);
grant select, delete on rate_limits to app_service;

create function app_rate_limit_hit(p_bucket text, p_window_seconds integer, p_limit integer)
  returns table (allowed boolean, retry_after integer)
  language plpgsql volatile
  security definer
  set search_path = pg_catalog, public
as $$
declare
  v_start timestamptz := to_timestamp(floor(extract(epoch from now()) / p_window_seconds) * p_window_seconds);
  v_hits integer;
begin
  insert into public.rate_limits as r (bucket, window_start, hits) values (p_bucket, v_start, 1)
  on conflict (bucket, window_start) do update set hits = r.hits + 1
  returning r.hits into v_hits;
  allowed := v_hits <= p_limit;
  retry_after := greatest(1, ceil(extract(epoch from (v_start + make_interval(secs => p_window_seconds) - now())))::integer);
  return next;
end $$;
revoke all on function app_rate_limit_hit(text, integer, integer) from public;
grant execute on function app_rate_limit_hit(text, integer, integer) to app_anon, app_authenticated, app_service;
