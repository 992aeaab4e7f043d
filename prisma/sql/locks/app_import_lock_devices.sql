-- An import: the provider's devices (JSON, as lib/locks/provider.ts lists them) into one tenant's locks.
CREATE OR REPLACE FUNCTION public.app_import_lock_devices(p_tenant_id uuid, p_provider lock_provider, p_account text, p_devices jsonb, p_create boolean)
 RETURNS TABLE(lock_id uuid, inserted boolean)
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_device jsonb;
  v_id uuid;
  v_new boolean;
begin
  for v_device in select value from jsonb_array_elements(p_devices) loop
    begin
      v_new := false;
      update locks l
         set name = v_device->>'name', online = (v_device->>'online')::boolean,
             battery_level = (v_device->>'batteryLevel')::smallint,
             can_program_online = (v_device->>'canProgramOnline')::boolean,
             can_program_offline = (v_device->>'canProgramOffline')::boolean,
             supports_backup_codes = (v_device->>'supportsBackupCodes')::boolean,
             account = case when p_create then p_account else l.account end,
             last_seen_at = case when (v_device->>'online')::boolean then now() else l.last_seen_at end,
             synced_at = now(), updated_at = now()
       where l.tenant_id = p_tenant_id and l.provider = p_provider and l.device_id = v_device->>'deviceId'
         and (p_create or l.account = p_account)
      returning l.id into v_id;
      if v_id is null and p_create then
        insert into locks (tenant_id, provider, account, device_id, name, online, battery_level,
                           can_program_online, can_program_offline, supports_backup_codes, last_seen_at, synced_at)
        values (p_tenant_id, p_provider, p_account, v_device->>'deviceId', v_device->>'name',
                (v_device->>'online')::boolean, (v_device->>'batteryLevel')::smallint,
                (v_device->>'canProgramOnline')::boolean, (v_device->>'canProgramOffline')::boolean,
                (v_device->>'supportsBackupCodes')::boolean,
                case when (v_device->>'online')::boolean then now() end, now())
        on conflict (tenant_id, provider, device_id) do nothing
        returning id into v_id;
        v_new := v_id is not null;
      end if;
      if v_id is not null then
        lock_id := v_id;
        inserted := v_new;
        return next;
      end if;
    exception when sqlstate 'UL001' then
      -- Held by another tenant: this tenant never sees it (the operator's log says so).
      null;
    end;
  end loop;
end $function$;
