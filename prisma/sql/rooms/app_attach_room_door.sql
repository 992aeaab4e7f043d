-- Puts a lock on a room's live keys (it just became one of the room's doors): a door row each, sent by the key's program job; returns those keys.
CREATE OR REPLACE FUNCTION public.app_attach_room_door(p_tenant_id uuid, p_room_id uuid, p_lock_id uuid)
 RETURNS uuid[]
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_keys uuid[];
begin
  -- A key whose PIN is already live on that lock for someone else keeps its other doors (one live PIN per lock).
  -- A row left from an earlier time this lock was the room's door comes back to life.
  with sent as (
    insert into key_lock_codes (tenant_id, key_id, lock_id)
    select k.tenant_id, k.id, p_lock_id from access_keys k
     where k.tenant_id = p_tenant_id and k.room_id = p_room_id
       and k.status in ('pre_issued', 'active') and k.kind <> 'backup'
       and not exists (select 1 from key_lock_codes c join access_keys o on o.tenant_id = c.tenant_id and o.id = c.key_id
                        where c.tenant_id = k.tenant_id and c.lock_id = p_lock_id and c.key_id <> k.id
                          and o.pin = k.pin and c.state not in ('removed', 'failed'))
    on conflict (tenant_id, key_id, lock_id) do update
       set detached = false, state = 'pending', code_id = null, offline = false, error = null, attempts = 0,
           rewindow = false, rewindow_error = null, updated_at = now()
     where key_lock_codes.detached
    returning key_id)
  select coalesce(array_agg(key_id order by key_id), '{}') into v_keys from sent;
  for i in 1..coalesce(array_length(v_keys, 1), 0) loop
    perform app_enqueue_job('vendor_program_key', jsonb_build_object('tenantId', p_tenant_id, 'keyId', v_keys[i]),
                            queue_name => 'key:' || v_keys[i], max_attempts => 8);
  end loop;
  return v_keys;
end $function$;
