-- Trigger: a key's vendor_sync follows its doors (app_key_sync_of_doors).
CREATE OR REPLACE FUNCTION public.key_lock_codes_sync_key()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_sync vendor_sync;
begin
  v_sync := app_key_sync_of_doors(new.tenant_id, new.key_id);
  if v_sync is not null then
    update access_keys set vendor_sync = v_sync, updated_at = now()
     where tenant_id = new.tenant_id and id = new.key_id and vendor_sync is distinct from v_sync;
  end if;
  return null;
end $function$;
