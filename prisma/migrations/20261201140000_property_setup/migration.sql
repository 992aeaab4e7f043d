-- Issue 15: a property set up and run without the CLI, and facilities that rent by the hour.
-- One migration for the columns the desk, the guest page and the manager's setup pages all read, so
-- each of them works from the same shape.

-- A facility rents its rooms by the night (check-in and check-out times) or by the hour (opening hours).
create type booking_unit as enum ('night', 'hour');

alter table facilities
  add column booking_unit booking_unit not null default 'night',
  -- Local times in the facility's time zone.
  add column check_in_time time not null default '15:00',
  add column check_out_time time not null default '10:00',
  add column opens_at time,
  add column closes_at time,
  -- What a guest needs at the door, shown on the key page.
  add column address text check (length(address) <= 500),
  add column phone text check (length(phone) <= 50),
  -- Per language ({"en": {...}, "ja": {...}}): keypad instructions, Wi-Fi, house rules, directions;
  -- lib/facilities says which fields and how long.
  add column guest_info jsonb not null default '{}' check (jsonb_typeof(guest_info) = 'object'),
  add constraint facilities_opening_hours check (
    booking_unit = 'night' or (opens_at is not null and closes_at is not null and opens_at < closes_at)
  );

-- A room's rate is per night or per hour, with a name kept in each reservation's snapshot.
alter table rooms rename column nightly_rate_cents to rate_cents;
alter table rooms rename constraint rooms_nightly_rate_cents_check to rooms_rate_cents_check;
alter table rooms
  add column rate_unit booking_unit not null default 'night',
  add column rate_name text not null default 'Standard' check (length(rate_name) between 1 and 100),
  -- An archived room takes no new bookings and is hidden from the desk's lists; its history stays.
  add column archived_at timestamptz;

-- A deactivated member cannot sign in to that tenant; the user row and its history stay.
alter table memberships add column deactivated_at timestamptz;

-- The rate's name goes into the reservation's snapshot at insert, whoever inserts it (desk, API,
-- Calendly, Cal.com), unless the inserting function wrote one itself.
create function reservations_snapshot_plan_name() returns trigger
language plpgsql as $$
begin
  if new.plan_name_snapshot is null then
    select ro.rate_name into new.plan_name_snapshot
      from rooms ro where ro.tenant_id = new.tenant_id and ro.id = new.room_id;
  end if;
  return new;
end $$;

create trigger reservations_snapshot_plan_name before insert on reservations
  for each row execute function reservations_snapshot_plan_name();
