-- Trigger: keeps room_holds in step with a key that holds its door (and yields soft leads).
CREATE OR REPLACE FUNCTION public.access_keys_hold_room()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_offline boolean;
begin
  if not app_key_holds_door(new) then
    delete from room_holds where tenant_id = new.tenant_id and key_id = new.id;
    return null;
  end if;
  v_offline := app_key_is_offline(new.tenant_id, new.id);
  if new.status = 'pre_issued' and not v_offline then
    perform app_yield_key_leads(new.tenant_id, new.room_id, new.reservation_id, tstzrange(new.valid_from, new.expires_at, '[)'));
  end if;
  insert into room_holds (tenant_id, room_id, reservation_id, key_id, during, soft)
  values (new.tenant_id, new.room_id, new.reservation_id, new.id, tstzrange(new.valid_from, new.expires_at, '[)'),
          new.status = 'pre_issued' and not v_offline)
  on conflict (tenant_id, key_id) where key_id is not null
  do update set during = excluded.during, soft = excluded.soft;
  return null;
end $function$;
