-- A lock device belongs to at most one tenant (issue 28, item 1; decision 020). Before this, every
-- tenant on the install's own lock account (the simulator, or whatever LOCK_VENDOR_URL names) could
-- import every device on it, attach it to a room and put codes on another tenant's door.
--
-- 1. The account a lock's device is reached through: `install` for the install's own account
--    (provider `simulator`), else `acct:<sha256 hex>` of the tenant's own account identity (Seam: its
--    API key; TTLock: the platform's origin and the account's username; lib/locks/tenant-provider.ts).
--    Locks of a tenant's own provider from before this migration cannot be hashed here (their
--    credentials are encrypted with a key the migration does not have): they get `legacy:<tenant>`,
--    which the next import replaces with the real identity.
alter table locks add column account text;
update locks set account = case when provider = 'simulator' then 'install' else 'legacy:' || tenant_id::text end;
alter table locks alter column account set not null;
-- Most locks are the install's (the simulator's): a row that names no account is one of those.
alter table locks alter column account set default 'install';
alter table locks add constraint locks_account_form check (
  case when provider = 'simulator' then account = 'install'
       else account ~ '^(acct:[0-9a-f]{64}|legacy:[0-9a-f-]{36})$' end);

-- 2. Releasing a lock: the tenant keeps its row and history, but the lock is taken off its rooms
--    and its device id replaced by one no provider knows, so no code of this tenant reaches that
--    device any more; audited `lock.released` with the device it had. Used when another tenant holds
--    the device: below for devices two tenants hold already (the hole this closes: the first to have
--    it keeps it), and by app_rekey_lock_account when new credentials reach a device held elsewhere.
create function app_release_lock(p_tenant_id uuid, p_lock_id uuid, p_reason text) returns void
  language plpgsql
  set search_path = pg_catalog, public
as $$
declare
  v_lock locks;
  v_doors integer;
begin
  select * into v_lock from locks
   where tenant_id = p_tenant_id and id = p_lock_id and device_id not like 'released:%' for update;
  if not found then
    return;
  end if;
  update locks set device_id = 'released:' || id::text, updated_at = now()
   where tenant_id = p_tenant_id and id = p_lock_id;
  delete from room_locks where tenant_id = p_tenant_id and lock_id = p_lock_id;
  get diagnostics v_doors = row_count;
  insert into audit_events (tenant_id, actor_type, actor_label, action, subject_type, subject_id, metadata)
  values (p_tenant_id, 'system', 'lock devices', 'lock.released', 'lock', p_lock_id,
          jsonb_build_object('provider', v_lock.provider, 'deviceId', v_lock.device_id, 'reason', p_reason,
                             'doorsRemoved', v_doors));
end $$;
revoke all on function app_release_lock(uuid, uuid, text) from public;
grant execute on function app_release_lock(uuid, uuid, text) to app_service;

do $$
declare
  v_lock record;
begin
  for v_lock in
    select tenant_id, id from (
      select tenant_id, id, row_number() over (partition by provider, account, device_id order by created_at, id) as n
        from locks) ranked
     where n > 1
  loop
    perform app_release_lock(v_lock.tenant_id, v_lock.id, 'held_by_another_tenant');
  end loop;
end $$;

-- 3. The global lookup (a Citus reference table, like guest_link_tokens and api_key_secrets): one
--    row per (provider, account, device), naming the one tenant and lock that hold it. Its primary
--    key is the guarantee; a trigger keeps it in step with `locks`, so every path that writes a lock
--    (import, assignment, a room's device, a fixture's SQL) goes through it.
create table lock_devices (
  provider lock_provider not null,
  account text not null,
  device_id text not null,
  tenant_id uuid not null references tenants (id) on delete cascade,
  lock_id uuid not null,
  primary key (provider, account, device_id)
);
insert into lock_devices (provider, account, device_id, tenant_id, lock_id)
select provider, account, device_id, tenant_id, id from locks;
create index lock_devices_lock on lock_devices (tenant_id, lock_id);

-- A device another tenant holds: UL001. `on conflict do nothing` waits for a concurrent claim of the
-- same device to commit or roll back, so of two tenants claiming one device at once exactly one holds it.
create function locks_keep_device_lookup() returns trigger
  language plpgsql security definer
  set search_path = pg_catalog, public
as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    delete from lock_devices
     where provider = old.provider and account = old.account and device_id = old.device_id
       and tenant_id = old.tenant_id and lock_id = old.id;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into lock_devices (provider, account, device_id, tenant_id, lock_id)
    values (new.provider, new.account, new.device_id, new.tenant_id, new.id)
    on conflict do nothing;
    if not found then
      raise exception 'lock device % of provider % is held by another tenant', new.device_id, new.provider
        using errcode = 'UL001', detail = new.device_id;
    end if;
  end if;
  return null;
end $$;
create trigger locks_device_lookup after insert or delete on locks
  for each row execute function locks_keep_device_lookup();
create trigger locks_device_lookup_moved after update of provider, account, device_id, tenant_id, id on locks
  for each row
  when ((old.provider, old.account, old.device_id, old.tenant_id, old.id)
        is distinct from (new.provider, new.account, new.device_id, new.tenant_id, new.id))
  execute function locks_keep_device_lookup();

alter table lock_devices enable row level security;
alter table lock_devices force row level security;
do $$ begin
  execute format('create policy definer_functions on lock_devices to %I using (true) with check (true)', current_user);
end $$;

-- 4. An import: the provider's devices (JSON, as lib/locks/provider.ts lists them) into one tenant's
--    locks. On the install's account (`p_create` false) only devices already assigned to the tenant
--    are refreshed — nothing new is ever taken; on the tenant's own account new devices become locks.
--    A device another tenant holds is skipped, whatever the account: never imported, never refreshed.
--    Answers the locks it refreshed or made (`inserted` for new ones).
create function app_import_lock_devices(p_tenant_id uuid, p_provider lock_provider, p_account text,
                                        p_devices jsonb, p_create boolean)
  returns table (lock_id uuid, inserted boolean)
  language plpgsql
  set search_path = pg_catalog, public
as $$
declare
  v_device jsonb;
  v_id uuid;
  v_new boolean;
begin
  for v_device in select value from jsonb_array_elements(p_devices) loop
    begin
      v_new := false;
      update locks l
         set name = v_device->>'name', online = (v_device->>'online')::boolean,
             battery_level = (v_device->>'batteryLevel')::smallint,
             can_program_online = (v_device->>'canProgramOnline')::boolean,
             can_program_offline = (v_device->>'canProgramOffline')::boolean,
             supports_backup_codes = (v_device->>'supportsBackupCodes')::boolean,
             account = case when p_create then p_account else l.account end,
             last_seen_at = case when (v_device->>'online')::boolean then now() else l.last_seen_at end,
             synced_at = now(), updated_at = now()
       where l.tenant_id = p_tenant_id and l.provider = p_provider and l.device_id = v_device->>'deviceId'
         and (p_create or l.account = p_account)
      returning l.id into v_id;
      if v_id is null and p_create then
        insert into locks (tenant_id, provider, account, device_id, name, online, battery_level,
                           can_program_online, can_program_offline, supports_backup_codes, last_seen_at, synced_at)
        values (p_tenant_id, p_provider, p_account, v_device->>'deviceId', v_device->>'name',
                (v_device->>'online')::boolean, (v_device->>'batteryLevel')::smallint,
                (v_device->>'canProgramOnline')::boolean, (v_device->>'canProgramOffline')::boolean,
                (v_device->>'supportsBackupCodes')::boolean,
                case when (v_device->>'online')::boolean then now() end, now())
        on conflict (tenant_id, provider, device_id) do nothing
        returning id into v_id;
        v_new := v_id is not null;
      end if;
      if v_id is not null then
        lock_id := v_id;
        inserted := v_new;
        return next;
      end if;
    exception when sqlstate 'UL001' then
      -- Held by another tenant: this tenant never sees it (the operator's log says so).
      null;
    end;
  end loop;
end $$;
revoke all on function app_import_lock_devices(uuid, lock_provider, text, jsonb, boolean) from public;
grant execute on function app_import_lock_devices(uuid, lock_provider, text, jsonb, boolean) to app_service;

-- 5. New credentials for a tenant's own provider: its locks of that provider are reached through the
--    new account from now on, so they move to it (`locks.account`). One whose device another tenant
--    holds under that account is released (step 2): the new credentials never drive a device held
--    elsewhere. Answers how many were released.
create function app_rekey_lock_account(p_tenant_id uuid, p_provider lock_provider, p_account text)
  returns integer
  language plpgsql
  set search_path = pg_catalog, public
as $$
declare
  v_lock record;
  v_released integer := 0;
begin
  for v_lock in
    select id from locks
     where tenant_id = p_tenant_id and provider = p_provider and account <> p_account
       and device_id not like 'released:%'
     order by id
  loop
    begin
      update locks set account = p_account, updated_at = now() where tenant_id = p_tenant_id and id = v_lock.id;
    exception when sqlstate 'UL001' then
      perform app_release_lock(p_tenant_id, v_lock.id, 'held_by_another_tenant');
      v_released := v_released + 1;
    end;
  end loop;
  return v_released;
end $$;
revoke all on function app_rekey_lock_account(uuid, lock_provider, text) from public;
grant execute on function app_rekey_lock_account(uuid, lock_provider, text) to app_service;
