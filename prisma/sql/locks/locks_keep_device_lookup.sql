-- Trigger: keeps lock_devices (which tenant holds each provider device) in step with locks; a device another tenant
-- holds: UL001.
CREATE OR REPLACE FUNCTION public.locks_keep_device_lookup()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    delete from lock_devices
     where provider = old.provider and account = old.account and device_id = old.device_id
       and tenant_id = old.tenant_id and lock_id = old.id;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into lock_devices (provider, account, device_id, tenant_id, lock_id)
    values (new.provider, new.account, new.device_id, new.tenant_id, new.id)
    on conflict do nothing;
    if not found then
      raise exception 'lock device % of provider % is held by another tenant', new.device_id, new.provider
        using errcode = 'UL001', detail = new.device_id;
    end if;
  end if;
  return null;
end $function$;
