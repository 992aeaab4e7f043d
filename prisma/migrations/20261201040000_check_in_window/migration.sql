-- A check-in gives a PIN that works from now (issue 12, item 7). Days before the stay that PIN can
-- open a room someone else is sleeping in. A check-in opens at the stay's start minus the
-- facility's early check-in minutes; earlier only when the desk insists (`check_ins.early`,
-- audited) and nobody else's stay overlaps the hours between now and the start.

alter table facilities add column early_check_in_minutes integer not null default 0
  check (early_check_in_minutes between 0 and 1440);
alter table check_ins add column early boolean not null default false;

-- When a reservation's check-in opens.
create function app_check_in_opens_at(p_tenant_id uuid, p_reservation_id uuid) returns timestamptz
  language sql stable
  set search_path = pg_catalog, public
as $$
  select r.starts_at - make_interval(mins => f.early_check_in_minutes)
    from reservations r
    join rooms ro on ro.tenant_id = r.tenant_id and ro.id = r.room_id
    join facilities f on f.tenant_id = ro.tenant_id and f.id = ro.facility_id
   where r.tenant_id = p_tenant_id and r.id = p_reservation_id
$$;
grant execute on function app_check_in_opens_at(uuid, uuid) to app_service, app_authenticated;

-- Whether another live stay of the room overlaps [now, the reservation's start): the hours an
-- early check-in would open the door.
create function app_room_free_until_start(p_tenant_id uuid, p_reservation_id uuid) returns boolean
  language sql stable
  set search_path = pg_catalog, public
as $$
  select not exists (
    select 1 from reservations r
      join reservations other on other.tenant_id = r.tenant_id and other.room_id = r.room_id and other.id <> r.id
     where r.tenant_id = p_tenant_id and r.id = p_reservation_id
       and other.status in ('held', 'confirmed', 'checked_in')
       and tstzrange(other.starts_at, other.ends_at, '[)') && tstzrange(least(now(), r.starts_at), r.starts_at, '[)'))
$$;
grant execute on function app_room_free_until_start(uuid, uuid) to app_service, app_authenticated;

-- The rule, for every writer of check_ins.
create function check_ins_guard_window() returns trigger
  language plpgsql
  set search_path = pg_catalog, public
as $$
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
end $$;
create trigger check_ins_guard_window before insert on check_ins
  for each row execute function check_ins_guard_window();
