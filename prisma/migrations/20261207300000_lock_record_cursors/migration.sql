-- Issue 33 (item 1, TTLock): a TTLock lock keeps its records and its gateway uploads them, sometimes long after they
-- happened; the product reads them (/v3/lockRecord/list) every minute with a cursor kept here per lock, so a worker
-- that restarts resumes where the last complete read ended: no gap, and no duplicate (entries are unique per provider
-- event id within the tenant). `read_until`: the time a read began that stored everything it listed; the next read
-- asks from `read_until` minus the overlap window (lib/locks/poll-lock-records.ts), for records uploaded late.
-- `next_poll_at` backs off a lock whose provider keeps failing; `failures` and `last_error` say why.
create table lock_record_cursors (
  tenant_id uuid not null references tenants (id),
  lock_id uuid not null,
  read_until timestamptz,
  polled_at timestamptz,
  next_poll_at timestamptz,
  failures integer not null default 0 check (failures >= 0),
  last_error text check (length(last_error) <= 200),
  primary key (tenant_id, lock_id),
  foreign key (tenant_id, lock_id) references locks (tenant_id, id)
);
alter table lock_record_cursors enable row level security;
alter table lock_record_cursors force row level security;
create policy service_all on lock_record_cursors to app_service using (true) with check (true);
create policy tenant_isolation on lock_record_cursors to app_authenticated
  using (tenant_id = app_current_tenant()) with check (tenant_id = app_current_tenant());
grant select on lock_record_cursors to app_authenticated;
grant select, insert, update on lock_record_cursors to app_service;

-- The remote unlock an entry came from (its person and reason): by the provider's action id where it gives one (Seam),
-- else the nearest unlock of that lock asked for just before (TTLock's gateway unlock carries no reference).
alter table door_entries add column remote_unlock_id uuid;
alter table door_entries add constraint door_entries_remote_unlock_fkey
  foreign key (tenant_id, remote_unlock_id) references remote_unlocks (tenant_id, id);
create index door_entries_remote_unlock on door_entries (tenant_id, remote_unlock_id)
  where remote_unlock_id is not null;
create index remote_unlocks_lock_time on remote_unlocks (tenant_id, lock_id, created_at);

-- app_record_door_entry takes the typed PIN (TTLock names no code id) and no person any more (the remote unlock names
-- them); its new definition is prisma/sql/locks/app_record_door_entry.sql.
drop function if exists app_record_door_entry(uuid, lock_provider, text, text, text, text, text, timestamptz, uuid, text);
