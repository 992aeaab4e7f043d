-- Issue 32: bookings from Airbnb, Booking.com and any RFC 5545 feed, and this product's busy periods back to them.
--
-- 1. A room's import feeds. Each is fetched every ICAL_POLL_MINUTES (next_fetch_at) and on demand, with the
--    validators of its last answer (ETag, Last-Modified) so an unchanged feed costs a 304; a run of failures is
--    counted (failures) for the alerts at 1, 5 and 20.
create table ical_feeds (
  tenant_id uuid not null references tenants (id) on delete cascade,
  id uuid not null default gen_random_uuid(),
  room_id uuid not null,
  channel text not null default 'other' check (channel in ('airbnb', 'booking', 'vrbo', 'other')),
  url text not null check (url ~ '^https?://' and length(url) <= 2000),
  etag text,
  last_modified text,
  next_fetch_at timestamptz not null default now(),
  last_fetched_at timestamptz,
  last_success_at timestamptz,
  failures integer not null default 0 check (failures >= 0),
  last_error text check (length(last_error) <= 300),
  created_at timestamptz not null default now(),
  primary key (tenant_id, id),
  unique (tenant_id, room_id, url),
  foreign key (tenant_id, room_id) references rooms (tenant_id, id) on delete cascade
);
create index ical_feeds_due on ical_feeds (next_fetch_at);

-- 2. What each feed event (its UID) became: a stay (`booked`), refused because it overlaps another stay of the room
--    (`rejected`, with an incident), or `cancelled` after it was missing from two successful fetches in a row
--    (`missing` counts them; one fetch without it changes nothing). A UID is one stay per feed.
create table ical_feed_events (
  tenant_id uuid not null references tenants (id) on delete cascade,
  feed_id uuid not null,
  uid text not null check (length(uid) between 1 and 500),
  status text not null check (status in ('booked', 'rejected', 'cancelled')),
  reservation_id uuid,
  starts_at timestamptz not null,
  ends_at timestamptz not null check (ends_at > starts_at),
  missing integer not null default 0 check (missing between 0 and 2),
  updated_at timestamptz not null default now(),
  primary key (tenant_id, feed_id, uid),
  foreign key (tenant_id, feed_id) references ical_feeds (tenant_id, id) on delete cascade,
  foreign key (tenant_id, reservation_id) references reservations (tenant_id, id),
  check ((status = 'booked') = (reservation_id is not null) or status = 'cancelled')
);
create unique index ical_feed_events_reservation on ical_feed_events (tenant_id, reservation_id)
  where reservation_id is not null;

-- 3. A room's export: one secret token per room (rotating it replaces it), found from the URL through a global
--    lookup by the token's hash, kept by a trigger (the token itself stays in the tenant's row, for its managers).
create table room_ical_exports (
  tenant_id uuid not null references tenants (id) on delete cascade,
  room_id uuid not null,
  token text not null check (length(token) >= 32),
  created_at timestamptz not null default now(),
  primary key (tenant_id, room_id),
  foreign key (tenant_id, room_id) references rooms (tenant_id, id) on delete cascade
);

create table ical_export_tokens (
  token_hash bytea primary key,
  tenant_id uuid not null references tenants (id) on delete cascade,
  room_id uuid not null
);

grant select on ical_feeds, ical_feed_events, room_ical_exports to app_authenticated;
grant select, insert, update, delete on ical_feeds, ical_feed_events, room_ical_exports to app_service;
grant select on ical_export_tokens to app_service;

do $$
declare t text;
begin
  foreach t in array array['ical_feeds', 'ical_feed_events', 'room_ical_exports'] loop
    execute format('alter table %I enable row level security', t);
    execute format('alter table %I force row level security', t);
    execute format('create policy service_all on %I to app_service using (true) with check (true)', t);
    execute format('create policy tenant_isolation on %I to app_authenticated
      using (tenant_id = app_current_tenant()) with check (tenant_id = app_current_tenant())', t);
  end loop;
  alter table ical_export_tokens enable row level security;
  alter table ical_export_tokens force row level security;
  execute format('create policy definer_functions on ical_export_tokens to %I using (true) with check (true)', current_user);
  create policy service_read on ical_export_tokens for select to app_service using (true);
end $$;

-- sql-file-exception: the lookup trigger below needs its function now (prisma/sql/ical/room_ical_exports_keep_lookup.sql holds it)
CREATE OR REPLACE FUNCTION public.room_ical_exports_keep_lookup()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    delete from ical_export_tokens where token_hash = digest(old.token, 'sha256') and tenant_id = old.tenant_id;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into ical_export_tokens (token_hash, tenant_id, room_id) values (digest(new.token, 'sha256'), new.tenant_id, new.room_id);
  end if;
  return null;
end $function$;
;
create trigger room_ical_exports_lookup after insert or delete or update of token, tenant_id, room_id
  on room_ical_exports for each row execute function room_ical_exports_keep_lookup();

-- Stays booked from a feed say so.
alter type reservation_source add value if not exists 'ical';
