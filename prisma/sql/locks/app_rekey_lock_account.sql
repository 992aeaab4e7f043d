-- New credentials for a tenant's own provider: its locks of that provider are reached through the new account from
-- now on, so they move to it (`locks.account`).
CREATE OR REPLACE FUNCTION public.app_rekey_lock_account(p_tenant_id uuid, p_provider lock_provider, p_account text)
 RETURNS integer
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_lock record;
  v_released integer := 0;
begin
  for v_lock in
    select id from locks
     where tenant_id = p_tenant_id and provider = p_provider and account <> p_account
       and device_id not like 'released:%'
     order by id
  loop
    begin
      update locks set account = p_account, updated_at = now() where tenant_id = p_tenant_id and id = v_lock.id;
    exception when sqlstate 'UL001' then
      perform app_release_lock(p_tenant_id, v_lock.id, 'held_by_another_tenant');
      v_released := v_released + 1;
    end;
  end loop;
  return v_released;
end $function$;
