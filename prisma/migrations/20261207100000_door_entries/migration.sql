-- Issue 33 (item 1): the door's own record. Every opening (and locking) a lock provider reports is one row, stored
-- once per provider event id within the tenant, append-only like the audit trail. When a code opened the door the
-- row names the key (its stay and room follow from it); deleting the guest changes nothing here (no personal data is
-- kept in an entry). A remote unlock from the desk names the person who asked for it.
create table door_entries (
  tenant_id uuid not null references tenants (id),
  id uuid not null default gen_random_uuid(),
  provider lock_provider not null,
  provider_event_id text not null check (length(provider_event_id) between 1 and 200),
  lock_id uuid not null,
  kind text not null check (kind in ('unlocked', 'locked')),
  method text not null check (method in ('code', 'app', 'manual', 'unknown')),
  occurred_at timestamptz not null,
  key_id uuid,
  user_id uuid references users (id) on delete set null,
  recorded_at timestamptz not null default now(),
  primary key (tenant_id, id),
  unique (tenant_id, provider, provider_event_id),
  foreign key (tenant_id, lock_id) references locks (tenant_id, id),
  foreign key (tenant_id, key_id) references access_keys (tenant_id, id),
  -- A key is named only for an opening by code.
  check (key_id is null or method = 'code')
);
create index door_entries_time on door_entries (tenant_id, occurred_at desc, id desc);
create index door_entries_key on door_entries (tenant_id, key_id) where key_id is not null;

-- Append-only: no role changes or removes an entry (the users FK's "set null" is the one update allowed: a
-- person's account removed leaves the entry without them).
create trigger door_entries_no_delete before delete on door_entries
  for each row execute function audit_events_append_only();
create trigger door_entries_no_truncate before truncate on door_entries
  for each statement execute function audit_events_append_only();

-- sql-file-exception: the update guard below needs its function now (prisma/sql/locks/door_entries_guard_update.sql holds it)
CREATE OR REPLACE FUNCTION public.door_entries_guard_update()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog'
AS $function$
begin
  if new.user_id is null and old.user_id is not null
     and (to_jsonb(new) - 'user_id') = (to_jsonb(old) - 'user_id') then
    return new;
  end if;
  raise exception 'door_entries is append-only (% refused)', tg_op using errcode = 'UA001';
end $function$;
;
create trigger door_entries_no_update before update on door_entries
  for each row execute function door_entries_guard_update();

alter table door_entries enable row level security;
alter table door_entries force row level security;
create policy service_all on door_entries to app_service using (true) with check (true);
create policy tenant_isolation on door_entries to app_authenticated
  using (tenant_id = app_current_tenant()) with check (tenant_id = app_current_tenant());
grant select on door_entries to app_authenticated;
grant select, insert on door_entries to app_service;

-- A stay's first opening by its guest's code: the desk sees the guest has arrived.
alter table reservations add column arrived_at timestamptz;

-- Issue 33 (item 2): a door opened remotely from the desk. One row per request, with its reason and the person; the
-- provider's action id links the entry its lock then reports (Seam's lock.unlocked carries action_attempt_id).
create table remote_unlocks (
  tenant_id uuid not null references tenants (id),
  id uuid not null default gen_random_uuid(),
  lock_id uuid not null,
  user_id uuid references users (id) on delete set null,
  actor_label text not null check (length(actor_label) between 1 and 200),
  reason text not null check (length(reason) between 1 and 300),
  status text not null default 'requested' check (status in ('requested', 'unlocked', 'pending', 'failed')),
  action_id text check (length(action_id) <= 200),
  error text check (length(error) <= 200),
  created_at timestamptz not null default now(),
  primary key (tenant_id, id),
  foreign key (tenant_id, lock_id) references locks (tenant_id, id)
);
create unique index remote_unlocks_action on remote_unlocks (tenant_id, lock_id, action_id) where action_id is not null;
alter table remote_unlocks enable row level security;
alter table remote_unlocks force row level security;
create policy service_all on remote_unlocks to app_service using (true) with check (true);
create policy tenant_isolation on remote_unlocks to app_authenticated
  using (tenant_id = app_current_tenant()) with check (tenant_id = app_current_tenant());
grant select on remote_unlocks to app_authenticated;
grant select, insert, update on remote_unlocks to app_service;
