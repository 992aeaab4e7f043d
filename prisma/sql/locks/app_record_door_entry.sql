-- One door opening or locking a provider reported: stored once per provider event id within the tenant, linked to the key whose code it was on that lock and to the remote unlock that caused it; a new opening is audited door.opened.
CREATE OR REPLACE FUNCTION public.app_record_door_entry(p_tenant_id uuid, p_provider lock_provider, p_event_id text, p_device_id text, p_code_id text, p_pin text, p_kind text, p_method text, p_occurred_at timestamp with time zone, p_action_id text, p_remote boolean, p_source_id text)
 RETURNS TABLE(entry_id uuid, duplicate boolean, lock_id uuid)
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_keys uuid[];
  v_key uuid;
  v_reservation uuid;
  v_room uuid;
  v_unlock remote_unlocks;
begin
  -- Only the tenant's own device: another tenant's device id finds nothing and records nothing.
  select l.id into lock_id from locks l
   where l.tenant_id = p_tenant_id and l.provider = p_provider and l.device_id = p_device_id;
  if lock_id is null then
    return;
  end if;
  -- The key is the one whose code was on this very lock: by the provider's code id (Seam), or by the PIN typed (TTLock
  -- names no code), then only a key whose window covers that moment and whose code had not left the lock. A code or
  -- PIN of another lock or tenant names nobody, and so does a PIN two keys could claim (plural, never a guess).
  if p_method = 'code' and p_code_id is not null then
    select array_agg(distinct c.key_id) into v_keys from key_lock_codes c
     where c.tenant_id = p_tenant_id and c.lock_id = app_record_door_entry.lock_id and c.code_id = p_code_id;
  elsif p_method = 'code' and p_pin is not null then
    select array_agg(distinct k.id) into v_keys
      from key_lock_codes c
      join access_keys k on k.tenant_id = c.tenant_id and k.id = c.key_id
     where c.tenant_id = p_tenant_id and c.lock_id = app_record_door_entry.lock_id and c.code_id is not null
       and k.pin = p_pin and k.valid_from <= p_occurred_at and p_occurred_at < k.expires_at
       and (c.removed_at is null or c.removed_at > p_occurred_at);
  end if;
  if cardinality(v_keys) = 1 then
    v_key := v_keys[1];
    select k.reservation_id, k.room_id into v_reservation, v_room from access_keys k
     where k.tenant_id = p_tenant_id and k.id = v_key;
  end if;
  -- The remote unlock from the desk that opened it: by the provider's action id (Seam's action_attempt_id), else for
  -- the provider's own remote unlock (TTLock's gateway unlock, which carries no reference) the unlock of this lock
  -- asked for nearest that moment, within two minutes, that no entry names yet (decision 036).
  if p_kind = 'unlocked' and p_action_id is not null then
    select * into v_unlock from remote_unlocks u
     where u.tenant_id = p_tenant_id and u.lock_id = app_record_door_entry.lock_id and u.action_id = p_action_id;
  elsif p_kind = 'unlocked' and p_remote then
    select * into v_unlock from remote_unlocks u
     where u.tenant_id = p_tenant_id and u.lock_id = app_record_door_entry.lock_id
       and u.created_at between p_occurred_at - interval '2 minutes' and p_occurred_at + interval '2 minutes'
       and (u.status <> 'failed' or u.error = 'unconfirmed')
       and not exists (select 1 from door_entries e
                        where e.tenant_id = u.tenant_id and e.remote_unlock_id = u.id)
     order by abs(extract(epoch from u.created_at - p_occurred_at)), u.created_at
     limit 1;
  end if;
  insert into door_entries (tenant_id, provider, provider_event_id, lock_id, kind, method, occurred_at, key_id, user_id,
                            remote_unlock_id)
  values (p_tenant_id, p_provider, p_event_id, app_record_door_entry.lock_id, p_kind, p_method, p_occurred_at, v_key,
          v_unlock.user_id, v_unlock.id)
  on conflict (tenant_id, provider, provider_event_id) do nothing
  returning id into entry_id;
  if entry_id is null then
    -- Stored before (a redelivery, a read that overlaps the last one): nothing is written again.
    select e.id into entry_id from door_entries e
     where e.tenant_id = p_tenant_id and e.provider = p_provider and e.provider_event_id = p_event_id;
    duplicate := true;
    return next;
    return;
  end if;
  duplicate := false;
  if p_kind = 'unlocked' then
    -- A stay's first opening by its guest's code (or its backup code) marks the guest arrived.
    if v_key is not null then
      update reservations r set arrived_at = p_occurred_at
        from access_keys k
       where k.tenant_id = p_tenant_id and k.id = v_key and k.kind in ('guest', 'backup')
         and r.tenant_id = k.tenant_id and r.id = k.reservation_id
         and (r.arrived_at is null or r.arrived_at > p_occurred_at);
    end if;
    -- The remote unlock that opened it is done, whatever its provider had answered so far (converges, never undone).
    if v_unlock.id is not null and v_unlock.status <> 'done' then
      update remote_unlocks u set status = 'done', error = null, updated_at = now()
       where u.tenant_id = p_tenant_id and u.id = v_unlock.id;
    end if;
    -- Each new opening is audited once, in this transaction: by whoever asked for a remote unlock, else the provider.
    perform app_audit(p_tenant_id,
                      coalesce(v_unlock.actor_type, 'provider'::actor_type),
                      case when v_unlock.id is not null then v_unlock.actor_id
                           else coalesce(p_source_id, p_provider::text) end,
                      coalesce(v_unlock.actor_label, p_provider::text),
                      'door.opened', 'lock', app_record_door_entry.lock_id, v_room, null,
                      jsonb_build_object('method', p_method, 'keyId', v_key, 'reservationId', v_reservation,
                                         'entryId', entry_id, 'remoteUnlockId', v_unlock.id));
  end if;
  return next;
end $function$
