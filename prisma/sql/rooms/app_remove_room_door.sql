-- Takes a lock off a room's doors: the room's live codes come off it (through the key's removal job); refuses a door holding an offline code and the last door of a room with live keys.
CREATE OR REPLACE FUNCTION public.app_remove_room_door(p_tenant_id uuid, p_room_id uuid, p_lock_id uuid)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_role door_role;
  v_doors integer;
  v_live integer;
  v_keys uuid[];
begin
  if not exists (select 1 from rooms where tenant_id = p_tenant_id and id = p_room_id) then
    return jsonb_build_object('outcome', 'room_not_found');
  end if;
  perform app_lock_room_doors(p_tenant_id, p_room_id);
  select role into v_role from room_locks
   where tenant_id = p_tenant_id and room_id = p_room_id and lock_id = p_lock_id for update;
  if not found then
    return jsonb_build_object('outcome', 'not_a_door');
  end if;
  if exists (select 1 from key_lock_codes c join access_keys k on k.tenant_id = c.tenant_id and k.id = c.key_id
              where c.tenant_id = p_tenant_id and c.lock_id = p_lock_id and k.room_id = p_room_id
                and k.status in ('pre_issued', 'active') and not c.detached
                and (c.offline or c.state = 'valid_until_end')) then
    return jsonb_build_object('outcome', 'offline_code');
  end if;
  select count(*) into v_doors from room_locks where tenant_id = p_tenant_id and room_id = p_room_id;
  select count(*) into v_live from access_keys
   where tenant_id = p_tenant_id and room_id = p_room_id and status in ('pre_issued', 'active');
  -- A stay's PIN must open something: the last door goes only when no live key needs it (replace the lock instead).
  if v_doors = 1 and v_live > 0 then
    return jsonb_build_object('outcome', 'last_door', 'liveKeys', v_live);
  end if;
  delete from room_locks where tenant_id = p_tenant_id and room_id = p_room_id and lock_id = p_lock_id;
  v_keys := app_detach_room_door(p_tenant_id, p_room_id, p_lock_id);
  return jsonb_build_object('outcome', 'removed', 'role', v_role, 'keysRemoving', to_jsonb(v_keys),
                            'doorsLeft', v_doors - 1);
end $function$;
