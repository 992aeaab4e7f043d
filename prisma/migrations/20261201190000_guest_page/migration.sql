-- Issue 15, the guest page: what a guest needs at the door, and an honest page after the stay.

-- 1. The facility's door information, read through the guest's own link (the policies of
--    20261201050000 still confine app_anon to the one reservation its token opens). Only the
--    columns the page shows: not the opening hours, lead times or anything staff-only.
grant select (address, phone, check_out_time, booking_unit, guest_info) on facilities to app_anon;

-- 2. After the stay: a cancelled or checked-out stay's link opens no rows to app_anon (the key is
--    gone with it), but the page still thanks the guest, or says the booking was cancelled, with the
--    property's contact. The link's own rules (this token, not rotated, not past its expiry, guest
--    not deleted) now live in one function; app_guest_reservation_id() (20261201050000) keeps its
--    answer — the link's reservation while the stay is live — and app_guest_ended_stay() answers
--    the ended stay's contact, never a key, a PIN or the guest's name.
create function app_guest_link_reservation()
  returns table (tenant_id uuid, reservation_id uuid, status reservation_status)
  language sql stable
  security definer
  set search_path = pg_catalog, public
as $$
  select gl.tenant_id, gl.reservation_id, r.status
    from guest_links gl
    join reservations r on r.tenant_id = gl.tenant_id and r.id = gl.reservation_id
   where gl.token_hash = app_guest_token_hash()
     and gl.ended_at is null
     and gl.expires_at > now()
     and r.guest_id is not null
$$;
revoke all on function app_guest_link_reservation() from public;

create or replace function app_guest_reservation_id() returns uuid
  language sql stable
  security definer
  set search_path = pg_catalog, public
as $$
  select l.reservation_id from app_guest_link_reservation() l where l.status not in ('cancelled', 'checked_out')
$$;

create function app_guest_ended_stay()
  returns table (status reservation_status, room_label text, starts_at timestamptz, ends_at timestamptz,
                 facility_name text, time_zone text, address text, phone text)
  language sql stable
  security definer
  set search_path = pg_catalog, public
as $$
  select r.status, r.room_label_snapshot, r.starts_at, r.ends_at, f.name, f.time_zone, f.address, f.phone
    from app_guest_link_reservation() l
    join reservations r on r.tenant_id = l.tenant_id and r.id = l.reservation_id
    join rooms ro on ro.tenant_id = r.tenant_id and ro.id = r.room_id
    join facilities f on f.tenant_id = ro.tenant_id and f.id = ro.facility_id
   where l.status in ('cancelled', 'checked_out')
$$;
revoke all on function app_guest_ended_stay() from public;
grant execute on function app_guest_ended_stay() to app_anon;

-- Under FORCE ROW LEVEL SECURITY the owner needs a policy to read rooms and facilities from the
-- function above (guest_links and reservations have theirs; a superuser owner bypasses RLS anyway).
do $$
begin
  execute format('create policy definer_guest_ended_stay on rooms for select to %I using (true)', current_user);
  execute format('create policy definer_guest_ended_stay on facilities for select to %I using (true)', current_user);
end $$;
