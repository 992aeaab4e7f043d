-- Releasing a lock: the tenant keeps its row and history, but the lock is taken off its rooms and its device id
-- replaced by one no provider knows, so no code of this tenant reaches that device any more; audited `lock.released`
-- with the device it had.
CREATE OR REPLACE FUNCTION public.app_release_lock(p_tenant_id uuid, p_lock_id uuid, p_reason text)
 RETURNS void
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
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
end $function$;
