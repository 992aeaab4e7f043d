-- Trigger: keeps room_holds in step with a stay extension waiting for its payment (held: it holds the added time).
CREATE OR REPLACE FUNCTION public.stay_extensions_hold_room()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_during tstzrange := tstzrange(new.from_ends_at, new.ends_at, '[)');
begin
  if new.status <> 'held' then
    delete from room_holds where tenant_id = new.tenant_id and extension_id = new.id;
    return null;
  end if;
  if tg_op = 'UPDATE' and old.status = 'held' then
    return null;
  end if;
  perform app_yield_key_leads(new.tenant_id, new.room_id, new.reservation_id, v_during);
  insert into room_holds (tenant_id, room_id, reservation_id, extension_id, during)
  values (new.tenant_id, new.room_id, new.reservation_id, new.id, v_during);
  return null;
end $function$;
