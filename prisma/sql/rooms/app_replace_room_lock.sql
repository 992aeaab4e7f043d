-- Moves a room's door from one lock to an unassigned lock of the tenant: every live code of the room goes onto the new lock, off the old one, in one transaction.
CREATE OR REPLACE FUNCTION public.app_replace_room_lock(p_tenant_id uuid, p_room_id uuid, p_old_lock_id uuid, p_new_lock_id uuid)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_role door_role;
  v_removing uuid[];
  v_sent uuid[];
  v_live integer;
begin
  if not exists (select 1 from rooms where tenant_id = p_tenant_id and id = p_room_id) then
    return jsonb_build_object('outcome', 'room_not_found');
  end if;
  perform app_lock_room_doors(p_tenant_id, p_room_id);
  select role into v_role from room_locks
   where tenant_id = p_tenant_id and room_id = p_room_id and lock_id = p_old_lock_id for update;
  if not found then
    return jsonb_build_object('outcome', 'not_a_door');
  end if;
  -- The new lock, held against a second replacement choosing it meanwhile (no key update: key writers' key share passes).
  perform 1 from locks where tenant_id = p_tenant_id and id = p_new_lock_id and device_id not like 'released:%'
     for no key update;
  if not found then
    return jsonb_build_object('outcome', 'lock_not_found');
  end if;
  if p_new_lock_id = p_old_lock_id or exists (select 1 from room_locks where tenant_id = p_tenant_id and lock_id = p_new_lock_id) then
    return jsonb_build_object('outcome', 'lock_in_use');
  end if;
  if exists (select 1 from key_lock_codes c join access_keys k on k.tenant_id = c.tenant_id and k.id = c.key_id
              where c.tenant_id = p_tenant_id and c.lock_id = p_old_lock_id and k.room_id = p_room_id
                and k.status in ('pre_issued', 'active') and not c.detached
                and (c.offline or c.state = 'valid_until_end')) then
    return jsonb_build_object('outcome', 'offline_code');
  end if;
  delete from room_locks where tenant_id = p_tenant_id and room_id = p_room_id and lock_id = p_old_lock_id;
  insert into room_locks (tenant_id, room_id, lock_id, role) values (p_tenant_id, p_room_id, p_new_lock_id, v_role);
  v_sent := app_attach_room_door(p_tenant_id, p_room_id, p_new_lock_id);
  v_removing := app_detach_room_door(p_tenant_id, p_room_id, p_old_lock_id);
  select count(*) into v_live from access_keys
   where tenant_id = p_tenant_id and room_id = p_room_id and status in ('pre_issued', 'active') and kind <> 'backup';
  return jsonb_build_object('outcome', 'replaced', 'role', v_role, 'keysSent', to_jsonb(v_sent),
                            'keysRemoving', to_jsonb(v_removing), 'keysSkipped', v_live - coalesce(array_length(v_sent, 1), 0));
end $function$;
