-- Trigger: a new guest or staff key gets one door row (key_lock_codes) for every lock of its room, read after the room's door lock.
CREATE OR REPLACE FUNCTION public.access_keys_add_doors()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  if new.kind = 'backup' then
    return null;
  end if;
  -- Shared with every key of the room, exclusive for a door change (app_lock_room_doors): the doors read below are
  -- the room's doors once any change in flight has committed, so a key never lands on a door being taken off.
  perform pg_advisory_xact_lock_shared(hashtextextended('room-doors:' || new.room_id::text, 0));
  insert into key_lock_codes (tenant_id, key_id, lock_id)
  select new.tenant_id, new.id, rl.lock_id
    from room_locks rl where rl.tenant_id = new.tenant_id and rl.room_id = new.room_id;
  return null;
end $function$;
