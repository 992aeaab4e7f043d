-- The PIN lives in access_keys.pin and nowhere else (lib/log/no-leaks.test.ts): the door rows no
-- longer carry a copy. "One live PIN per lock" — across every room that shares a door — is kept by
-- a trigger that, holding a lock per lock, refuses a door whose key's PIN is already live there
-- (SQLSTATE 23505, constraint key_lock_codes_one_live_pin_per_lock, so app_insert_key draws again).

drop index key_lock_codes_one_live_pin_per_lock;
alter table key_lock_codes drop column pin;

create function key_lock_codes_one_live_pin_per_lock() returns trigger
  language plpgsql
  set search_path = pg_catalog, public
as $$
declare
  v_pin text;
begin
  -- Serialises door inserts per lock: the check below then sees every committed door of that lock.
  perform pg_advisory_xact_lock(hashtextextended('lock-pin:' || new.lock_id::text, 0));
  select pin into strict v_pin from access_keys where tenant_id = new.tenant_id and id = new.key_id;
  if exists (select 1 from key_lock_codes c join access_keys k on k.tenant_id = c.tenant_id and k.id = c.key_id
              where c.tenant_id = new.tenant_id and c.lock_id = new.lock_id and c.key_id <> new.key_id
                and c.state not in ('removed', 'failed') and k.pin = v_pin) then
    raise exception 'that PIN is already live on lock %', new.lock_id
      using errcode = '23505', constraint = 'key_lock_codes_one_live_pin_per_lock';
  end if;
  return new;
end $$;
create trigger key_lock_codes_one_live_pin_per_lock before insert on key_lock_codes
  for each row execute function key_lock_codes_one_live_pin_per_lock();

create or replace function access_keys_add_doors() returns trigger
  language plpgsql
  set search_path = pg_catalog, public
as $$
begin
  if new.kind = 'backup' then
    return null;
  end if;
  insert into key_lock_codes (tenant_id, key_id, lock_id)
  select new.tenant_id, new.id, rl.lock_id
    from room_locks rl where rl.tenant_id = new.tenant_id and rl.room_id = new.room_id;
  return null;
end $$;

-- A door's audit row is written when the transaction commits, after the row of what moved it (a
-- revocation, an issue): the timeline reads "revoked", then "still valid on the lock until its end".
drop trigger key_lock_codes_audit on key_lock_codes;
create constraint trigger key_lock_codes_audit after update of state on key_lock_codes
  deferrable initially deferred
  for each row when (old.state is distinct from new.state
                     and new.state in ('set', 'failed', 'removed', 'remove_failed', 'valid_until_end'))
  execute function key_lock_codes_audit();
