-- One door opening or locking a provider reported: stored once per provider event id within the tenant, linked to the key whose code it was on that lock.
CREATE OR REPLACE FUNCTION public.app_record_door_entry(p_tenant_id uuid, p_provider lock_provider, p_event_id text, p_device_id text, p_code_id text, p_kind text, p_method text, p_occurred_at timestamp with time zone, p_user_id uuid, p_action_id text)
 RETURNS TABLE(entry_id uuid, duplicate boolean, lock_id uuid)
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_key uuid;
begin
  -- Only the tenant's own device: another tenant's device id finds nothing and records nothing.
  select l.id into lock_id from locks l
   where l.tenant_id = p_tenant_id and l.provider = p_provider and l.device_id = p_device_id;
  if lock_id is null then
    return;
  end if;
  -- The key is the one whose code the provider names on this very lock (a code id of another lock names nobody).
  if p_code_id is not null and p_method = 'code' then
    select c.key_id into v_key from key_lock_codes c
     where c.tenant_id = p_tenant_id and c.lock_id = app_record_door_entry.lock_id and c.code_id = p_code_id
     order by c.created_at desc limit 1;
  end if;
  -- The provider's action of a remote unlock from the desk names the person who asked for it.
  if p_user_id is null and p_action_id is not null then
    select u.user_id into p_user_id from remote_unlocks u
     where u.tenant_id = p_tenant_id and u.lock_id = app_record_door_entry.lock_id and u.action_id = p_action_id;
  end if;
  insert into door_entries (tenant_id, provider, provider_event_id, lock_id, kind, method, occurred_at, key_id, user_id)
  values (p_tenant_id, p_provider, p_event_id, app_record_door_entry.lock_id, p_kind, p_method, p_occurred_at, v_key,
          p_user_id)
  on conflict (tenant_id, provider, provider_event_id) do nothing
  returning id into entry_id;
  if entry_id is null then
    select e.id into entry_id from door_entries e
     where e.tenant_id = p_tenant_id and e.provider = p_provider and e.provider_event_id = p_event_id;
    duplicate := true;
    return next;
    return;
  end if;
  duplicate := false;
  -- A stay's first opening by its guest's code (or its backup code) marks the guest arrived.
  if p_kind = 'unlocked' and v_key is not null then
    update reservations r set arrived_at = p_occurred_at
      from access_keys k
     where k.tenant_id = p_tenant_id and k.id = v_key and k.kind in ('guest', 'backup')
       and r.tenant_id = k.tenant_id and r.id = k.reservation_id
       and (r.arrived_at is null or r.arrived_at > p_occurred_at);
  end if;
  return next;
end $function$
