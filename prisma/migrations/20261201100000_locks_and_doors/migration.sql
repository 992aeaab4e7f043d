-- Real locks (issue 14): a lock provider per tenant, the provider's devices as locks, a room's
-- doors, and where each key's code stands on each door. A key is synced only when every door
-- agrees with it; that rule lives here, in triggers, not in the job that happens to run last.

-- 1. Providers. A tenant that chose none is driven through LOCK_VENDOR (the simulator by default).
create type lock_provider as enum ('simulator', 'seam', 'ttlock');
alter table tenants add column lock_provider lock_provider;
alter type secret_provider add value if not exists 'seam';
alter type secret_provider add value if not exists 'seam_webhook';
alter type secret_provider add value if not exists 'ttlock';
alter type webhook_provider add value if not exists 'seam';

-- 2. Keys have a kind: a guest's stay, a staff member's work window, or a backup code standing in.
create type key_kind as enum ('guest', 'staff', 'backup');
alter table access_keys add column kind key_kind not null default 'guest';

-- 3. Locks: a provider's device, imported by locks-sync (or named by room-create --lock-device).
--    The primary key carries the tenant (Citus's rule, DESIGN.md "Scaling out").
create table locks (
  tenant_id uuid not null references tenants (id),
  id uuid not null default gen_random_uuid(),
  provider lock_provider not null,
  device_id text not null check (length(device_id) between 1 and 200),
  name text not null,
  online boolean,
  battery_level smallint check (battery_level between 0 and 100),
  can_program_online boolean not null default true,
  can_program_offline boolean not null default false,
  supports_backup_codes boolean not null default false,
  last_seen_at timestamptz,
  last_event text,
  last_event_at timestamptz,
  synced_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (tenant_id, id),
  unique (tenant_id, provider, device_id)
);

-- 4. A room's doors: its own lock, the building's main entrance (shared by many rooms)…
create type door_role as enum ('room', 'entrance', 'other');
create table room_locks (
  tenant_id uuid not null,
  room_id uuid not null,
  lock_id uuid not null,
  role door_role not null default 'room',
  created_at timestamptz not null default now(),
  primary key (tenant_id, room_id, lock_id),
  foreign key (tenant_id, room_id) references rooms (tenant_id, id) on delete cascade,
  foreign key (tenant_id, lock_id) references locks (tenant_id, id) on delete cascade
);
create index room_locks_lock on room_locks (tenant_id, lock_id);

-- 5. Where a key's code stands on each door.
--    pending  → not yet asked (or asking again after a retryable failure)
--    setting  → the provider took it and has not confirmed it on the lock yet
--    set      → the provider confirmed it on the lock (status read or event), never assumed
--    failed   → it could not be set, for good
--    removing → the key ended; the code must go (asked, or to be asked)
--    removed  → confirmed gone, or never reached the lock
--    remove_failed → could not be removed: the lock may still open with it (a critical incident)
--    valid_until_end → an offline code: revoked here, still valid on the lock until the key's end
create type door_code_state as enum ('pending', 'setting', 'set', 'failed', 'removing', 'removed', 'remove_failed',
                                     'valid_until_end');
create table key_lock_codes (
  tenant_id uuid not null,
  key_id uuid not null,
  lock_id uuid not null,
  -- The PIN as it is on this lock: one live PIN per lock, across every room that shares the door.
  pin text not null,
  state door_code_state not null default 'pending',
  code_id text,
  offline boolean not null default false,
  error text,
  attempts integer not null default 0,
  set_at timestamptz,
  removed_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (tenant_id, key_id, lock_id),
  foreign key (tenant_id, key_id) references access_keys (tenant_id, id),
  foreign key (tenant_id, lock_id) references locks (tenant_id, id)
);
-- A PIN stays on a lock until it is confirmed removed: two keys must not share one there (the
-- provider refuses a duplicate, and a shared entrance would let one guest's PIN be another's).
create unique index key_lock_codes_one_live_pin_per_lock on key_lock_codes (tenant_id, lock_id, pin)
  where state not in ('removed', 'failed');
create index key_lock_codes_by_code on key_lock_codes (tenant_id, lock_id, code_id) where code_id is not null;

-- 6. Existing rooms' devices become locks of the simulator (the only provider there was), and
--    existing keys' lock-side state moves onto their door.
insert into locks (tenant_id, provider, device_id, name)
select distinct r.tenant_id, 'simulator'::lock_provider, r.lock_device_ref, r.lock_device_ref
  from rooms r where r.lock_device_ref is not null
union
select distinct k.tenant_id, 'simulator'::lock_provider, k.lock_device_ref, k.lock_device_ref
  from access_keys k where k.lock_device_ref is not null
on conflict do nothing;
insert into room_locks (tenant_id, room_id, lock_id)
select r.tenant_id, r.id, l.id from rooms r
  join locks l on l.tenant_id = r.tenant_id and l.provider = 'simulator' and l.device_id = r.lock_device_ref;
insert into key_lock_codes (tenant_id, key_id, lock_id, pin, state, code_id, error)
select k.tenant_id, k.id, l.id, k.pin,
       case when k.status in ('pre_issued', 'active') then
              case k.vendor_sync when 'synced' then 'set' when 'failed' then 'failed' else 'pending' end
            else
              case k.vendor_sync when 'synced' then 'removed' when 'failed' then 'remove_failed' else 'removing' end
       end::door_code_state,
       k.vendor_key_id, k.vendor_error
  from access_keys k
  join rooms r on r.tenant_id = k.tenant_id and r.id = k.room_id
  join locks l on l.tenant_id = k.tenant_id and l.provider = 'simulator'
              and l.device_id = coalesce(k.lock_device_ref, r.lock_device_ref)
 where k.lock_device_ref is not null or k.status in ('pre_issued', 'active');
alter table access_keys drop column lock_device_ref;
alter table access_keys drop column vendor_key_id;
alter table rooms drop column lock_device_ref;

-- 7. A new key gets one row per door of its room, with its PIN: the partial unique index above
--    refuses a PIN already on one of those locks, and app_insert_key draws another.
create function access_keys_add_doors() returns trigger
  language plpgsql
  set search_path = pg_catalog, public
as $$
begin
  insert into key_lock_codes (tenant_id, key_id, lock_id, pin)
  select new.tenant_id, new.id, rl.lock_id, new.pin
    from room_locks rl where rl.tenant_id = new.tenant_id and rl.room_id = new.room_id;
  return null;
end $$;
create trigger access_keys_add_doors after insert on access_keys
  for each row execute function access_keys_add_doors();

create or replace function app_insert_key(p_tenant_id uuid, p_reservation_id uuid, p_check_in_id uuid, p_room_id uuid,
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
      if v_constraint not in ('access_keys_one_live_pin_per_room', 'key_lock_codes_one_live_pin_per_lock') then raise; end if;
    end;
  end loop;
  raise exception 'no free PIN on room %', p_room_id using errcode = 'UK003';
end $$;

-- 8. A key that ends takes its code off every door: online codes go to `removing` (the removal job
--    then confirms each), an offline code cannot be removed and says so, and a door that never got
--    the code is checked all the same (a lost answer may have set it).
create function access_keys_end_doors() returns trigger
  language plpgsql
  set search_path = pg_catalog, public
as $$
begin
  update key_lock_codes
     set state = case when offline then 'valid_until_end' else 'removing' end::door_code_state,
         error = null, attempts = 0, updated_at = now()
   where tenant_id = new.tenant_id and key_id = new.id and state not in ('removed', 'valid_until_end');
  return null;
end $$;
create trigger access_keys_end_doors after update of status on access_keys
  for each row when (old.status in ('pre_issued', 'active') and new.status in ('revoked', 'expired'))
  execute function access_keys_end_doors();

-- 9. The key's vendor_sync is what its doors say, together: a live key is synced when every door
--    has the code set, failed when any door failed; an ended key is synced when no door can still
--    open with a code we can remove. A key without doors keeps what the job decided.
create function app_key_sync_of_doors(p_tenant_id uuid, p_key_id uuid) returns vendor_sync
  language sql stable
  set search_path = pg_catalog, public
as $$
  select case
           when k.status in ('pre_issued', 'active') then
             case when bool_or(c.state = 'failed') then 'failed'
                  when bool_and(c.state = 'set') then 'synced'
                  else 'pending' end
           else
             case when bool_or(c.state = 'remove_failed') then 'failed'
                  when bool_and(c.state in ('removed', 'valid_until_end')) then 'synced'
                  else 'pending' end
         end::vendor_sync
    from access_keys k join key_lock_codes c on c.tenant_id = k.tenant_id and c.key_id = k.id
   where k.tenant_id = p_tenant_id and k.id = p_key_id
   group by k.status
$$;

create function key_lock_codes_sync_key() returns trigger
  language plpgsql
  set search_path = pg_catalog, public
as $$
declare
  v_sync vendor_sync;
begin
  v_sync := app_key_sync_of_doors(new.tenant_id, new.key_id);
  if v_sync is not null then
    update access_keys set vendor_sync = v_sync, updated_at = now()
     where tenant_id = new.tenant_id and id = new.key_id and vendor_sync is distinct from v_sync;
  end if;
  return null;
end $$;
create trigger key_lock_codes_sync_key after insert or update of state on key_lock_codes
  for each row execute function key_lock_codes_sync_key();

-- 10. Privileges and tenant isolation, as for every tenant table: staff read, the service role writes.
grant select on locks, room_locks, key_lock_codes to app_authenticated;
grant select, insert, update, delete on locks, room_locks, key_lock_codes to app_service;
do $$
declare t text;
begin
  foreach t in array array['locks', 'room_locks', 'key_lock_codes']
  loop
    execute format('alter table %I enable row level security', t);
    execute format('alter table %I force row level security', t);
    execute format('create policy service_all on %I to app_service using (true) with check (true)', t);
    execute format('create policy tenant_isolation on %I to app_authenticated
      using (tenant_id = app_current_tenant()) with check (tenant_id = app_current_tenant())', t);
  end loop;
end $$;
