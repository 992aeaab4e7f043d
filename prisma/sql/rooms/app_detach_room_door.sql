-- Takes one lock off a room's live keys: their codes on it go to `removing` (detached: no longer the key's door); returns those keys.
CREATE OR REPLACE FUNCTION public.app_detach_room_door(p_tenant_id uuid, p_room_id uuid, p_lock_id uuid)
 RETURNS uuid[]
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_keys uuid[];
begin
  -- A door that never confirmed the code is checked all the same (a lost answer may have set it).
  with moved as (
    update key_lock_codes c
       set detached = true,
           state = case when c.state = 'removed' then 'removed' else 'removing' end::door_code_state,
           error = null, attempts = 0, rewindow = false, rewindow_error = null, updated_at = now()
      from access_keys k
     where c.tenant_id = p_tenant_id and c.lock_id = p_lock_id
       and k.tenant_id = c.tenant_id and k.id = c.key_id and k.room_id = p_room_id
       and k.status in ('pre_issued', 'active') and not c.detached
    returning c.key_id, c.state)
  select coalesce(array_agg(key_id order by key_id) filter (where state = 'removing'), '{}') into v_keys from moved;
  for i in 1..coalesce(array_length(v_keys, 1), 0) loop
    perform app_enqueue_job('vendor_remove_key', jsonb_build_object('tenantId', p_tenant_id, 'keyId', v_keys[i]),
                            queue_name => 'key:' || v_keys[i], max_attempts => 8);
  end loop;
  return v_keys;
end $function$;
