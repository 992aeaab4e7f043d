-- Trigger: keeps room_holds in step with a stay's room, dates and status.
CREATE OR REPLACE FUNCTION public.reservations_hold_room()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_during tstzrange := tstzrange(new.starts_at, new.ends_at, '[)');
begin
  if new.status = 'cancelled' then
    -- the stay's own dates and any extension it was holding
    delete from room_holds where tenant_id = new.tenant_id and reservation_id = new.id and key_id is null;
    return null;
  end if;
  if tg_op = 'UPDATE' and old.status <> 'cancelled' and new.room_id = old.room_id
     and new.starts_at = old.starts_at and new.ends_at = old.ends_at then
    return null;
  end if;
  perform app_yield_key_leads(new.tenant_id, new.room_id, new.id, v_during);
  insert into room_holds (tenant_id, room_id, reservation_id, during)
  values (new.tenant_id, new.room_id, new.id, v_during)
  on conflict (tenant_id, reservation_id) where key_id is null and extension_id is null
  do update set room_id = excluded.room_id, during = excluded.during;
  return null;
end $function$;
