-- Backup codes (issue 14, item 6): when a key's code has not reached its lock in time, a code from
-- the provider's pool of pre-programmed codes stands in, as a key of kind `backup` with the same
-- window, pointing at the key it stands in for. It ends when that key ends.

alter table access_keys add column backup_for uuid;
alter table access_keys add constraint access_keys_backup_for_fkey
  foreign key (tenant_id, backup_for) references access_keys (tenant_id, id);
alter table access_keys add constraint access_keys_backup_kind
  check ((kind = 'backup') = (backup_for is not null));
-- One live backup per key.
create unique index access_keys_one_live_backup_per_key on access_keys (tenant_id, backup_for)
  where status in ('pre_issued', 'active');

-- The "one key" rules are about a stay's own key; a backup standing in for it is a second, named one.
drop index access_keys_one_active_per_check_in;
create unique index access_keys_one_active_per_check_in
  on access_keys (tenant_id, check_in_id) where status = 'active' and kind <> 'backup';
drop index access_keys_one_pre_issued_per_reservation;
create unique index access_keys_one_pre_issued_per_reservation
  on access_keys (tenant_id, reservation_id) where status = 'pre_issued' and kind <> 'backup';

-- A backup's one door is written by whoever pulled it from the pool (the code is already on that lock).
create or replace function access_keys_add_doors() returns trigger
  language plpgsql
  set search_path = pg_catalog, public
as $$
begin
  if new.kind = 'backup' then
    return null;
  end if;
  insert into key_lock_codes (tenant_id, key_id, lock_id, pin)
  select new.tenant_id, new.id, rl.lock_id, new.pin
    from room_locks rl where rl.tenant_id = new.tenant_id and rl.room_id = new.room_id;
  return null;
end $$;

-- A backup ends with the key it stands in for (and its code then leaves the lock like any other).
create function access_keys_end_backups() returns trigger
  language plpgsql
  set search_path = pg_catalog, public
as $$
declare
  v_backup uuid;
begin
  for v_backup in select id from access_keys
    where tenant_id = new.tenant_id and backup_for = new.id and status in ('pre_issued', 'active')
  loop
    perform app_end_key(new.tenant_id, v_backup, new.status, coalesce(new.revoked_reason, 'stay_ended'),
                        'system', null, 'backup follows its key');
  end loop;
  return null;
end $$;
create trigger access_keys_end_backups after update of status on access_keys
  for each row when (old.status in ('pre_issued', 'active') and new.status in ('revoked', 'expired') and new.kind <> 'backup')
  execute function access_keys_end_backups();

-- pre_issue_key returns the stay's own pre-issued key, never a backup standing in for it.
create or replace function pre_issue_key(p_tenant_id uuid, p_reservation_id uuid, p_actor_type actor_type, p_actor_id text, p_actor_label text)
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
  select * into v_key from access_keys
   where tenant_id = p_tenant_id and reservation_id = p_reservation_id and status = 'pre_issued' and kind <> 'backup';
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

-- Every new stay key is checked shortly before it must work: a door still without its code then
-- gets a backup code where the lock's provider keeps a pool (the `key_backup_check` job).
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
      if exists (select 1 from room_locks rl join locks l on l.tenant_id = rl.tenant_id and l.id = rl.lock_id
                  where rl.tenant_id = p_tenant_id and rl.room_id = p_room_id and l.supports_backup_codes) then
        perform app_enqueue_job('key_backup_check', jsonb_build_object('tenantId', p_tenant_id, 'keyId', v_key.id),
                                run_at => greatest(p_valid_from - interval '15 minutes', now() + interval '5 minutes'),
                                max_attempts => 3);
      end if;
      return v_key;
    exception when unique_violation then
      get stacked diagnostics v_constraint = constraint_name;
      if v_constraint not in ('access_keys_one_live_pin_per_room', 'key_lock_codes_one_live_pin_per_lock') then raise; end if;
    end;
  end loop;
  raise exception 'no free PIN on room %', p_room_id using errcode = 'UK003';
end $$;

-- The guest page reads which key is a backup for which (never more than it did: no door rows).
grant select (kind, backup_for) on access_keys to app_anon;
