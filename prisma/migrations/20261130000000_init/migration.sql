-- UnlockOS initial schema.
-- Invariants live here: constraints, triggers, privileges and row-level security.
-- Application checks are the first line; this file is the last.

create extension if not exists btree_gist;
create extension if not exists pgcrypto;

-- Roles are cluster-wide, so create them only when missing (several databases share a cluster in tests).
do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'app_anon') then
    create role app_anon nologin;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'app_authenticated') then
    create role app_authenticated nologin;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'app_service') then
    create role app_service nologin;
  end if;
  -- The application logs in as app_login: it owns nothing and has no privileges of its own;
  -- it can only SET ROLE to one of the three roles above (inherit false).
  if not exists (select 1 from pg_roles where rolname = 'app_login') then
    create role app_login login noinherit;
  end if;
end $$;

grant app_anon, app_authenticated, app_service to app_login with inherit false, set true;

revoke all on schema public from public;
grant usage on schema public to app_anon, app_authenticated, app_service;
revoke all on all tables in schema public from public;

-- Session settings read by policies: empty or missing means "no tenant".
create function app_current_tenant() returns uuid
  language sql stable
  set search_path = pg_catalog
as $$ select nullif(current_setting('app.tenant_id', true), '')::uuid $$;

create function app_current_user() returns uuid
  language sql stable
  set search_path = pg_catalog
as $$ select nullif(current_setting('app.user_id', true), '')::uuid $$;

create type membership_role as enum ('front_desk', 'manager');
create type reservation_status as enum ('held', 'confirmed', 'checked_in', 'checked_out', 'cancelled');
create type reservation_source as enum ('api', 'desk', 'calendly', 'cal');
create type key_status as enum ('pre_issued', 'active', 'revoked', 'expired');
create type vendor_sync as enum ('pending', 'synced', 'failed');
create type webhook_provider as enum ('stripe', 'calendly', 'cal');
create type webhook_status as enum ('received', 'processed', 'ignored', 'rejected', 'failed', 'dead');
create type secret_provider as enum ('calendly', 'cal', 'lock_vendor');
create type actor_type as enum ('user', 'api_key', 'guest', 'system', 'provider');

create table tenants (
  id uuid primary key default gen_random_uuid(),
  name text not null check (length(name) between 1 and 200),
  stripe_account_id text unique check (stripe_account_id ~ '^acct_[A-Za-z0-9]+$'),
  created_at timestamptz not null default now()
);

create table facilities (
  tenant_id uuid not null references tenants (id) on delete cascade,
  id uuid not null default gen_random_uuid(),
  name text not null check (length(name) between 1 and 200),
  time_zone text not null default 'UTC',
  created_at timestamptz not null default now(),
  primary key (id),
  unique (tenant_id, id)
);

create table rooms (
  tenant_id uuid not null,
  id uuid not null default gen_random_uuid(),
  facility_id uuid not null,
  label text not null check (length(label) between 1 and 100),
  lock_device_ref text,
  pin_length smallint not null default 6 check (pin_length between 4 and 10),
  nightly_rate_cents integer not null default 10000 check (nightly_rate_cents >= 0),
  currency text not null default 'jpy' check (currency ~ '^[a-z]{3}$'),
  created_at timestamptz not null default now(),
  primary key (id),
  unique (tenant_id, id),
  unique (tenant_id, facility_id, label),
  foreign key (tenant_id, facility_id) references facilities (tenant_id, id) on delete cascade
);

create table users (
  id uuid primary key default gen_random_uuid(),
  email text not null check (email = lower(email) and email ~ '^[^@\s]+@[^@\s]+$'),
  name text not null default '',
  password_hash text not null,
  failed_sign_ins integer not null default 0,
  locked_until timestamptz,
  created_at timestamptz not null default now(),
  unique (email)
);

create table memberships (
  tenant_id uuid not null references tenants (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  role membership_role not null,
  created_at timestamptz not null default now(),
  primary key (tenant_id, user_id)
);

create table guests (
  tenant_id uuid not null references tenants (id) on delete cascade,
  id uuid not null default gen_random_uuid(),
  name text not null check (length(name) between 1 and 200),
  email text,
  phone text,
  created_at timestamptz not null default now(),
  primary key (id),
  unique (tenant_id, id)
);

create table booking_groups (
  tenant_id uuid not null references tenants (id) on delete cascade,
  id uuid not null default gen_random_uuid(),
  payment_intent_id text,
  amount_cents integer check (amount_cents >= 0),
  currency text,
  created_at timestamptz not null default now(),
  primary key (id),
  unique (tenant_id, id),
  -- An intent belongs to at most one group, across every tenant.
  unique (payment_intent_id)
);

create table reservations (
  tenant_id uuid not null,
  id uuid not null default gen_random_uuid(),
  booking_group_id uuid,
  room_id uuid not null,
  guest_id uuid,
  starts_at timestamptz not null,
  ends_at timestamptz not null,
  status reservation_status not null default 'confirmed',
  paid_at timestamptz,
  refunded_at timestamptz,
  source reservation_source not null,
  external_ref text,
  external_updated_at timestamptz,
  -- Snapshots taken at insert, so a renamed room or a deleted guest still reads correctly.
  room_label_snapshot text not null,
  plan_name_snapshot text,
  guest_ref_snapshot text not null,
  cancelled_at timestamptz,
  cancel_reason text,
  created_at timestamptz not null default now(),
  primary key (id),
  unique (tenant_id, id),
  check (ends_at > starts_at),
  foreign key (tenant_id, room_id) references rooms (tenant_id, id),
  foreign key (tenant_id, booking_group_id) references booking_groups (tenant_id, id),
  -- Deleting a guest keeps the reservation: guest_id becomes null, the snapshots stay.
  foreign key (guest_id) references guests (id) on delete set null,
  -- No two live reservations of a room overlap.
  constraint reservations_no_overlap exclude using gist (
    tenant_id with =,
    room_id with =,
    tstzrange(starts_at, ends_at, '[)') with &&
  ) where (status <> 'cancelled')
);
create unique index reservations_external_ref_key
  on reservations (tenant_id, source, external_ref) where external_ref is not null;
create index reservations_room_time on reservations (tenant_id, room_id, starts_at);

create table check_ins (
  tenant_id uuid not null,
  id uuid not null default gen_random_uuid(),
  reservation_id uuid not null,
  completed_by_user_id uuid references users (id) on delete set null,
  created_at timestamptz not null default now(),
  primary key (id),
  unique (tenant_id, id),
  unique (tenant_id, reservation_id),
  foreign key (tenant_id, reservation_id) references reservations (tenant_id, id)
);

create table guest_links (
  tenant_id uuid not null,
  id uuid not null default gen_random_uuid(),
  reservation_id uuid not null,
  token_hash bytea not null unique,
  expires_at timestamptz not null,
  created_at timestamptz not null default now(),
  primary key (id),
  unique (tenant_id, id),
  foreign key (tenant_id, reservation_id) references reservations (tenant_id, id)
);

create table access_keys (
  tenant_id uuid not null,
  id uuid not null default gen_random_uuid(),
  reservation_id uuid not null,
  check_in_id uuid,
  room_id uuid not null,
  status key_status not null,
  pin text not null check (pin ~ '^[0-9]{4,10}$'),
  valid_from timestamptz not null,
  expires_at timestamptz not null,
  vendor_key_id text,
  vendor_sync vendor_sync not null default 'pending',
  revoked_reason text,
  revoked_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (id),
  unique (tenant_id, id),
  check (expires_at > valid_from),
  check ((status = 'revoked') = (revoked_reason is not null)),
  check (status <> 'pre_issued' or check_in_id is null),
  check (status <> 'active' or check_in_id is not null),
  foreign key (tenant_id, reservation_id) references reservations (tenant_id, id),
  foreign key (tenant_id, check_in_id) references check_ins (tenant_id, id),
  foreign key (tenant_id, room_id) references rooms (tenant_id, id)
);
-- One active key per check-in, one pre-issued key per reservation, one live PIN per room.
create unique index access_keys_one_active_per_check_in
  on access_keys (tenant_id, check_in_id) where status = 'active';
create unique index access_keys_one_pre_issued_per_reservation
  on access_keys (tenant_id, reservation_id) where status = 'pre_issued';
create unique index access_keys_one_live_pin_per_room
  on access_keys (tenant_id, room_id, pin) where status in ('pre_issued', 'active');
create index access_keys_expiry on access_keys (expires_at) where status in ('pre_issued', 'active');

-- The key lifecycle, enforced for every writer: pre_issued -> active | revoked | expired,
-- active -> revoked | expired; revoked and expired are terminal.
create function access_keys_guard_transition() returns trigger
  language plpgsql
  set search_path = pg_catalog, public
as $$
begin
  if new.status is distinct from old.status and not (
       (old.status = 'pre_issued' and new.status in ('active', 'revoked', 'expired'))
    or (old.status = 'active' and new.status in ('revoked', 'expired'))
  ) then
    raise exception 'illegal key transition from % to %', old.status, new.status
      using errcode = 'UK001', detail = format('from=%s to=%s', old.status, new.status);
  end if;
  if new.pin is distinct from old.pin or new.room_id is distinct from old.room_id
     or new.reservation_id is distinct from old.reservation_id or new.tenant_id is distinct from old.tenant_id then
    raise exception 'an access key''s identity cannot change' using errcode = 'UK002';
  end if;
  new.updated_at := now();
  return new;
end $$;
create trigger access_keys_guard_transition before update on access_keys
  for each row execute function access_keys_guard_transition();

create table audit_events (
  tenant_id uuid not null references tenants (id),
  id uuid not null default gen_random_uuid(),
  occurred_at timestamptz not null default clock_timestamp(),
  actor_type actor_type not null,
  actor_id text,
  actor_label text not null,
  action text not null check (action ~ '^[a-z_]+\.[a-z_]+$'),
  subject_type text not null,
  subject_id uuid,
  room_id uuid,
  reason text,
  metadata jsonb not null default '{}',
  primary key (id)
);
create index audit_events_tenant_time on audit_events (tenant_id, occurred_at desc, id desc);
create index audit_events_subject on audit_events (tenant_id, subject_id);

-- Append-only: no role may change or remove an audit row (privileges say so too).
create function audit_events_append_only() returns trigger
  language plpgsql
  set search_path = pg_catalog
as $$
begin
  raise exception 'audit_events is append-only (% refused)', tg_op using errcode = 'UA001';
end $$;
create trigger audit_events_no_update_delete before update or delete on audit_events
  for each row execute function audit_events_append_only();
create trigger audit_events_no_truncate before truncate on audit_events
  for each statement execute function audit_events_append_only();

create table api_keys (
  tenant_id uuid not null references tenants (id) on delete cascade,
  id uuid not null default gen_random_uuid(),
  name text not null check (length(name) between 1 and 100),
  prefix text not null,
  secret_hash bytea not null unique,
  created_by_user_id uuid references users (id) on delete set null,
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at timestamptz,
  primary key (id),
  unique (tenant_id, id)
);

create table provider_secrets (
  tenant_id uuid not null references tenants (id) on delete cascade,
  id uuid not null default gen_random_uuid(),
  provider secret_provider not null,
  ciphertext bytea not null,
  key_version integer not null check (key_version > 0),
  rotated_at timestamptz not null default now(),
  created_at timestamptz not null default now(),
  primary key (id),
  unique (tenant_id, provider)
);

create table subscriptions (
  tenant_id uuid not null references tenants (id) on delete cascade,
  id uuid not null default gen_random_uuid(),
  stripe_subscription_id text not null,
  stripe_customer_id text,
  status text not null,
  plan text,
  current_period_end timestamptz,
  stripe_updated_at timestamptz,
  updated_at timestamptz not null default now(),
  primary key (id),
  unique (tenant_id, stripe_subscription_id)
);

create table billing_failures (
  tenant_id uuid not null references tenants (id) on delete cascade,
  id uuid not null default gen_random_uuid(),
  kind text not null,
  day date not null,
  detail jsonb not null default '{}',
  created_at timestamptz not null default now(),
  primary key (id),
  unique (tenant_id, kind, day)
);

create table incidents (
  tenant_id uuid not null references tenants (id) on delete cascade,
  id uuid not null default gen_random_uuid(),
  condition_key text not null,
  kind text not null,
  severity text not null default 'warning' check (severity in ('info', 'warning', 'critical')),
  summary text not null,
  occurrences integer not null default 1,
  detail jsonb not null default '{}',
  opened_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  resolved_at timestamptz,
  primary key (id)
);
-- One open incident per condition; it is updated while the condition lasts.
create unique index incidents_one_open_per_condition
  on incidents (tenant_id, condition_key) where resolved_at is null;

create table booking_sources (
  tenant_id uuid not null,
  id uuid not null default gen_random_uuid(),
  provider webhook_provider not null check (provider in ('calendly', 'cal')),
  event_type text not null,
  room_id uuid not null,
  created_at timestamptz not null default now(),
  primary key (id),
  unique (tenant_id, provider, event_type),
  foreign key (tenant_id, room_id) references rooms (tenant_id, id) on delete cascade
);

-- The webhook inbox. tenant_id is null until the event is resolved to a tenant (Stripe events
-- name a Connect account, not a tenant); an unresolved row is visible to the service role only.
create table webhook_events (
  tenant_id uuid references tenants (id) on delete cascade,
  id uuid not null default gen_random_uuid(),
  provider webhook_provider not null,
  dedupe_key text not null,
  type text not null,
  status webhook_status not null default 'received',
  reason text,
  attempts integer not null default 0,
  payload jsonb not null,
  provider_created_at timestamptz,
  received_at timestamptz not null default now(),
  processed_at timestamptz,
  primary key (id),
  unique (provider, dedupe_key)
);
create index webhook_events_tenant_time on webhook_events (tenant_id, received_at desc);

-- Not tenant data: the worker's liveness, read by /api/health.
create table worker_heartbeats (
  worker_id text primary key,
  beat_at timestamptz not null default now()
);

-- Privileges. Nothing is granted to app_login itself.
grant select on tenants, facilities, rooms, memberships, guests, booking_groups, reservations,
  check_ins, guest_links, access_keys, audit_events, api_keys, subscriptions, billing_failures,
  incidents, booking_sources, webhook_events to app_authenticated;
grant select (id, email, name, created_at) on users to app_authenticated;
grant insert, update on facilities, rooms, guests, booking_groups, reservations, check_ins,
  guest_links, access_keys, booking_sources to app_authenticated;
grant delete on guests to app_authenticated;

grant select, insert, update, delete on tenants, facilities, rooms, users, memberships, guests,
  booking_groups, reservations, check_ins, guest_links, access_keys, api_keys, provider_secrets,
  subscriptions, billing_failures, incidents, booking_sources, webhook_events, worker_heartbeats
  to app_service;
-- Audit rows are appended by the service role only, never changed.
grant select, insert on audit_events to app_service;

grant execute on function app_current_tenant(), app_current_user() to app_anon, app_authenticated, app_service;

-- Row-level security: enabled and forced on every table that holds tenant data.
do $$
declare t text;
begin
  foreach t in array array['tenants', 'facilities', 'rooms', 'users', 'memberships', 'guests',
    'booking_groups', 'reservations', 'check_ins', 'guest_links', 'access_keys', 'audit_events',
    'api_keys', 'provider_secrets', 'subscriptions', 'billing_failures', 'incidents',
    'booking_sources', 'webhook_events']
  loop
    execute format('alter table %I enable row level security', t);
    execute format('alter table %I force row level security', t);
    execute format('create policy service_all on %I to app_service using (true) with check (true)', t);
    if t = 'tenants' then
      execute 'create policy tenant_isolation on tenants to app_authenticated using (id = app_current_tenant())';
    elsif t = 'users' then
      execute 'create policy tenant_isolation on users to app_authenticated using (
        exists (select 1 from memberships m where m.user_id = users.id and m.tenant_id = app_current_tenant()))';
    elsif t <> 'provider_secrets' then
      execute format('create policy tenant_isolation on %I to app_authenticated
        using (tenant_id = app_current_tenant()) with check (tenant_id = app_current_tenant())', t);
    end if;
  end loop;
end $$;

-- The transactional outbox: the service role enqueues a job inside its own transaction, so the job
-- exists exactly when the state change it belongs to commits. graphile-worker's add_job is not a
-- security-definer function, so this wrapper is (with a fixed search_path); the queue's tables stay
-- out of the application roles' reach.
create function app_enqueue_job(task text, payload jsonb, job_key text default null, run_at timestamptz default null, max_attempts integer default null)
  returns void
  language plpgsql
  security definer
  set search_path = pg_catalog
as $$
begin
  perform graphile_worker.add_job(task, payload::json, job_key => job_key, run_at => run_at, max_attempts => max_attempts);
end $$;
revoke all on function app_enqueue_job(text, jsonb, text, timestamptz, integer) from public;
grant execute on function app_enqueue_job(text, jsonb, text, timestamptz, integer) to app_service;
