-- A guest link stops working with its stay (issue 12, item 8): once the stay is cancelled or
-- checked out, or the guest deleted, and when the desk rotates it. The rule lives in one
-- security-definer function that app_anon's policies call, so no path through the guest role can
-- see a dead link's reservation, keys, room or facility.

alter table guest_links add column ended_at timestamptz;
-- One live link per reservation: a rotation ends the old one in the same transaction.
create unique index guest_links_one_live_per_reservation on guest_links (tenant_id, reservation_id) where ended_at is null;

-- The reservation the transaction's guest token opens, or null. Runs as the owner (app_anon has no
-- rights on guest_id or on other links), reads one row by the unique token hash.
create function app_guest_reservation_id() returns uuid
  language sql stable
  security definer
  set search_path = pg_catalog, public
as $$
  select gl.reservation_id
    from guest_links gl
    join reservations r on r.tenant_id = gl.tenant_id and r.id = gl.reservation_id
   where gl.token_hash = app_guest_token_hash()
     and gl.ended_at is null
     and gl.expires_at > now()
     and r.status not in ('cancelled', 'checked_out')
     and r.guest_id is not null
$$;
revoke all on function app_guest_reservation_id() from public;
grant execute on function app_guest_reservation_id() to app_anon;

-- Under FORCE ROW LEVEL SECURITY the owner needs a policy to read these tables from its
-- security-definer functions (a superuser owner bypasses RLS anyway).
do $$
begin
  execute format('create policy definer_functions on guest_links to %I using (true) with check (true)', current_user);
  execute format('create policy definer_functions on reservations to %I using (true) with check (true)', current_user);
end $$;

drop policy guest_link on guest_links;
drop policy guest_link on reservations;
drop policy guest_link on access_keys;
drop policy guest_link on rooms;
drop policy guest_link on facilities;
create policy guest_link on guest_links to app_anon
  using (token_hash = app_guest_token_hash() and reservation_id = app_guest_reservation_id());
create policy guest_link on reservations to app_anon
  using (id = app_guest_reservation_id());
create policy guest_link on access_keys to app_anon
  using (reservation_id = app_guest_reservation_id());
create policy guest_link on rooms to app_anon
  using (id = (select r.room_id from reservations r where r.id = app_guest_reservation_id()));
create policy guest_link on facilities to app_anon
  using (id = (select ro.facility_id from rooms ro join reservations r on r.tenant_id = ro.tenant_id and r.room_id = ro.id
               where r.id = app_guest_reservation_id()));
grant select (ended_at) on guest_links to app_anon;
