-- Trigger: a check-in only once its window opens (app_check_in_opens_at), for every writer of check_ins.
CREATE OR REPLACE FUNCTION public.check_ins_guard_window()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_opens timestamptz := app_check_in_opens_at(new.tenant_id, new.reservation_id);
  v_room uuid;
begin
  if v_opens is null or now() >= v_opens then
    return new;
  end if;
  if not new.early then
    raise exception 'check-in opens at %', v_opens using errcode = 'UC001',
      detail = to_char(v_opens at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"');
  end if;
  -- Serialise with bookings of the room (reserve_booking_group takes the same lock).
  select room_id into v_room from reservations where tenant_id = new.tenant_id and id = new.reservation_id;
  perform pg_advisory_xact_lock(hashtextextended(v_room::text, 2));
  if not app_room_free_until_start(new.tenant_id, new.reservation_id) then
    raise exception 'another stay of the room overlaps the early hours' using errcode = 'UC002';
  end if;
  return new;
end $function$;
