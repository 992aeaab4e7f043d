-- Trigger: a new guest or staff key gets one door row (key_lock_codes) for every lock of its room.
CREATE OR REPLACE FUNCTION public.access_keys_add_doors()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  if new.kind = 'backup' then
    return null;
  end if;
  insert into key_lock_codes (tenant_id, key_id, lock_id)
  select new.tenant_id, new.id, rl.lock_id
    from room_locks rl where rl.tenant_id = new.tenant_id and rl.room_id = new.room_id;
  return null;
end $function$;
