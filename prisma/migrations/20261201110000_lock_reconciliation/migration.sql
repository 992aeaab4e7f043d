-- What the provider said a lock holds at the last reconciliation (issue 14, item 5): the Locks page
-- shows it next to what we think the lock holds, without calling the provider on every page view.
-- Code ids and whose key each is, never a PIN.
alter table locks add column provider_codes jsonb;
alter table locks add column reconciled_at timestamptz;
alter table locks add column reconcile_error text;

-- A code's life on each door, in the audit trail (and so in the reservation's timeline): set,
-- failed, removed, could not be removed, or left valid on an offline lock until its end. Written by
-- the database on the state change itself, so no path that moves a door can forget it.
create function key_lock_codes_audit() returns trigger
  language plpgsql
  set search_path = pg_catalog, public
as $$
declare
  v_lock locks;
  v_room_id uuid;
begin
  select * into v_lock from locks where tenant_id = new.tenant_id and id = new.lock_id;
  select room_id into v_room_id from access_keys where tenant_id = new.tenant_id and id = new.key_id;
  perform app_audit(new.tenant_id, 'provider', v_lock.provider::text, v_lock.provider::text, 'key.door_' || new.state::text,
                    'access_key', new.key_id, v_room_id, new.error,
                    jsonb_build_object('lockId', v_lock.id, 'lockName', v_lock.name, 'deviceId', v_lock.device_id,
                                       'codeId', new.code_id, 'offline', new.offline));
  return null;
end $$;
create trigger key_lock_codes_audit after update of state on key_lock_codes
  for each row when (old.state is distinct from new.state
                     and new.state in ('set', 'failed', 'removed', 'remove_failed', 'valid_until_end'))
  execute function key_lock_codes_audit();
