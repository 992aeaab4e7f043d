-- Trigger: a backup ends with the key it stands in for (and its code then leaves the lock like any other).
CREATE OR REPLACE FUNCTION public.access_keys_end_backups()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_backup uuid;
begin
  for v_backup in select id from access_keys
    where tenant_id = new.tenant_id and backup_for = new.id and status in ('pre_issued', 'active')
  loop
    perform app_end_key(new.tenant_id, v_backup, new.status, coalesce(new.revoked_reason, 'stay_ended'),
                        'system', null, 'backup follows its key');
  end loop;
  return null;
end $function$;
