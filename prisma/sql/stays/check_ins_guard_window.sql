-- Trigger: a check-in only once its window opens (app_check_in_opens_at; a guest's own: app_self_check_in_opens_at).
CREATE OR REPLACE FUNCTION public.check_ins_guard_window()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_opens timestamptz := app_check_in_opens_at(new.tenant_id, new.reservation_id);
  v_room uuid;
begin
  -- A guest's self check-in opens earlier, and its key still waits for v_opens (app_stay_key_window).
  if new.self_check_in then
    v_opens := app_self_check_in_opens_at(new.tenant_id, new.reservation_id);
    if v_opens is null or now() >= v_opens then
      return new;
    end if;
    raise exception 'check-in opens at %', v_opens using errcode = 'UC001',
      detail = to_char(v_opens at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"');
  end if;
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
