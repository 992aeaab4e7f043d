-- Issue 30: room types and rates, the public booking site, and payments through Stripe Checkout.
--
-- Errors raised here (lib/db/errors.ts maps them):
--   UB003 the room type is not of the room's facility (rooms_room_type_fkey is the constraint; kept for messages)

create type payment_mode as enum ('none', 'online', 'at_property');
create type check_in_mode as enum ('desk', 'self');
create type registration_mode as enum ('none', 'jp');
create type tax_mode as enum ('included', 'added');
create type booking_request_status as enum ('awaiting_code', 'confirmed', 'gone');
create type payment_method as enum ('cash', 'card_terminal', 'stripe');

-- 1. What a facility sells and how: its currency and country (public holidays), tax, payment, check-in and
--    registration modes, and its public booking site (a slug unique on the install, the texts guests accept).
alter table facilities
  add column currency text not null default 'jpy' check (currency ~ '^[a-z]{3}$'),
  add column country text not null default 'JP' check (country ~ '^[A-Z]{2}$'),
  add column tax_mode tax_mode not null default 'included',
  add column tax_rate_bp integer not null default 1000 check (tax_rate_bp between 0 and 10000),
  add column payment_mode payment_mode not null default 'none',
  add column check_in_mode check_in_mode not null default 'desk',
  add column self_check_in_opens_hours integer not null default 24 check (self_check_in_opens_hours between 0 and 168),
  add column registration registration_mode not null default 'none',
  add column slug text check (slug ~ '^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$'),
  add column published_at timestamptz,
  add column terms_text text not null default '' check (length(terms_text) <= 20000),
  add column privacy_text text not null default '' check (length(privacy_text) <= 20000),
  add constraint facilities_published_has_slug check (published_at is null or slug is not null);

-- A slug finds its facility before any tenant is known: a global lookup (a Citus reference table) whose
-- primary key makes a slug unique on the whole install, kept in step by a trigger (prisma/sql/booking-site).
create table facility_slugs (
  slug text primary key,
  tenant_id uuid not null references tenants (id) on delete cascade,
  facility_id uuid not null
);

-- 2. Room types and their rates (the facility's unit: per night or per hour; in the facility's currency's
--    smallest unit). A weekend or holiday price that is null is the weekday's (weekend's) price.
create table room_types (
  tenant_id uuid not null references tenants (id) on delete cascade,
  id uuid not null default gen_random_uuid(),
  facility_id uuid not null,
  name text not null check (length(btrim(name)) between 1 and 80),
  description text not null default '' check (length(description) <= 2000),
  capacity integer not null default 2 check (capacity between 1 and 50),
  photos jsonb not null default '[]' check (jsonb_typeof(photos) = 'array'),
  weekday_cents integer not null check (weekday_cents between 0 and 100000000),
  weekend_cents integer check (weekend_cents between 0 and 100000000),
  holiday_cents integer check (holiday_cents between 0 and 100000000),
  archived_at timestamptz,
  created_at timestamptz not null default now(),
  primary key (tenant_id, id),
  unique (tenant_id, facility_id, id),
  unique (tenant_id, facility_id, name),
  foreign key (tenant_id, facility_id) references facilities (tenant_id, id) on delete cascade
);

-- A room's type is of the room's own facility: the foreign key names the facility too.
alter table rooms add column room_type_id uuid;
alter table rooms add constraint rooms_room_type_fkey
  foreign key (tenant_id, facility_id, room_type_id) references room_types (tenant_id, facility_id, id);
create index rooms_room_type on rooms (tenant_id, room_type_id) where room_type_id is not null;

-- A booking source may map to a room type instead of one room: each booking gets a free room of it.
alter table booking_sources alter column room_id drop not null;
alter table booking_sources add column room_type_id uuid;
alter table booking_sources add constraint booking_sources_room_type_fkey
  foreign key (tenant_id, room_type_id) references room_types (tenant_id, id) on delete cascade;
alter table booking_sources add constraint booking_sources_room_or_type
  check ((room_id is null) <> (room_type_id is null));

-- 3. Holds and payments of a booking group: a held group is released at hold_expires_at unless paid; its
--    Checkout Session is found from Stripe's id through a global lookup, as payment intents are.
alter table booking_groups
  add column hold_expires_at timestamptz,
  add column checkout_session_id text,
  add column checkout_url text,
  add column refunded_at timestamptz;
create unique index booking_groups_checkout_session on booking_groups (tenant_id, checkout_session_id)
  where checkout_session_id is not null;

create table stripe_checkout_sessions (
  checkout_session_id text not null,
  tenant_id uuid not null references tenants (id) on delete cascade,
  booking_group_id uuid not null,
  primary key (checkout_session_id, tenant_id)
);

-- Payments taken: at the property by the desk (cash, card terminal) or online (Stripe), each audited.
create table payments (
  tenant_id uuid not null references tenants (id) on delete cascade,
  id uuid not null default gen_random_uuid(),
  reservation_id uuid not null,
  amount_cents integer not null check (amount_cents > 0 and amount_cents <= 100000000),
  currency text not null check (currency ~ '^[a-z]{3}$'),
  method payment_method not null,
  note text check (length(note) <= 500),
  external_ref text,
  recorded_by uuid,
  created_at timestamptz not null default now(),
  primary key (tenant_id, id),
  foreign key (tenant_id, reservation_id) references reservations (tenant_id, id)
);
create index payments_reservation on payments (tenant_id, reservation_id);
-- One online payment per Checkout Session: a replayed or duplicated event records nothing twice.
create unique index payments_one_per_external_ref on payments (tenant_id, method, external_ref) where external_ref is not null;

-- 4. Booking requests: a guest's details and the emailed code's hash until the code proves the address;
--    nothing is held before that. The guest's details move to `guests` at confirmation (and are erased from
--    here); unconfirmed requests are swept a day after their code expires.
create table booking_requests (
  tenant_id uuid not null references tenants (id) on delete cascade,
  id uuid not null default gen_random_uuid(),
  facility_id uuid not null,
  room_type_id uuid not null,
  starts_at timestamptz not null,
  ends_at timestamptz not null,
  guest_name text check (length(guest_name) between 1 and 200),
  guest_email text check (length(guest_email) between 3 and 320),
  guest_phone text check (length(guest_phone) <= 40),
  locale text not null default 'en' check (locale in ('en', 'ja')),
  code_hash bytea not null,
  code_expires_at timestamptz not null,
  wrong_codes integer not null default 0 check (wrong_codes between 0 and 5),
  status booking_request_status not null default 'awaiting_code',
  amount_cents integer not null check (amount_cents >= 0),
  currency text not null,
  payment_mode payment_mode not null,
  booking_group_id uuid,
  reservation_id uuid,
  created_at timestamptz not null default now(),
  primary key (tenant_id, id),
  check (ends_at > starts_at),
  check (status <> 'confirmed' or reservation_id is not null),
  foreign key (tenant_id, facility_id, room_type_id) references room_types (tenant_id, facility_id, id) on delete cascade,
  foreign key (tenant_id, reservation_id) references reservations (tenant_id, id)
);
create index booking_requests_sweep on booking_requests (code_expires_at) where status = 'awaiting_code';

-- A confirmation link names only the request's id: a global lookup finds its tenant.
create table booking_request_ids (
  booking_request_id uuid primary key,
  tenant_id uuid not null references tenants (id) on delete cascade
);

-- Privileges. Staff read their tenant's types, payments and requests (RLS by tenant); every write goes
-- through the service role, as everywhere (lib/db/staff-grants.test.ts).
grant select on room_types, payments, booking_requests to app_authenticated;
grant select, insert, update, delete on room_types, payments, booking_requests to app_service;
grant select on facility_slugs, stripe_checkout_sessions, booking_request_ids to app_service;

do $$
declare t text;
begin
  foreach t in array array['room_types', 'payments', 'booking_requests'] loop
    execute format('alter table %I enable row level security', t);
    execute format('alter table %I force row level security', t);
    execute format('create policy service_all on %I to app_service using (true) with check (true)', t);
    execute format('create policy tenant_isolation on %I to app_authenticated
      using (tenant_id = app_current_tenant()) with check (tenant_id = app_current_tenant())', t);
  end loop;
  foreach t in array array['facility_slugs', 'stripe_checkout_sessions', 'booking_request_ids'] loop
    execute format('alter table %I enable row level security', t);
    execute format('alter table %I force row level security', t);
    execute format('create policy definer_functions on %I to %I using (true) with check (true)', t, current_user);
    execute format('create policy service_read on %I for select to app_service using (true)', t);
  end loop;
end $$;

-- Reservation snapshots and the old signatures of the booking functions: the files in prisma/sql define the
-- new ones (a status for the hold), applied after this migration.
drop function if exists app_hold_booking_group(uuid, uuid, uuid, text, text, text, text, integer, text, jsonb,
  reservation_source, text, text, timestamptz, boolean, actor_type, text, text);
drop function if exists reserve_booking_group(uuid, uuid, uuid, jsonb, reservation_source, text, text, timestamptz,
  boolean, actor_type, text, text);

-- sql-file-exception: the lookup triggers below need their functions now (their files in prisma/sql/booking-site hold them)
CREATE OR REPLACE FUNCTION public.facilities_keep_slug_lookup()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  if tg_op in ('UPDATE', 'DELETE') and old.slug is not null then
    delete from facility_slugs where slug = old.slug and tenant_id = old.tenant_id and facility_id = old.id;
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.slug is not null then
    insert into facility_slugs (slug, tenant_id, facility_id) values (new.slug, new.tenant_id, new.id);
  end if;
  return null;
end $function$;
;
CREATE OR REPLACE FUNCTION public.booking_groups_keep_session_lookup()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  if tg_op in ('UPDATE', 'DELETE') and old.checkout_session_id is not null then
    delete from stripe_checkout_sessions
     where checkout_session_id = old.checkout_session_id and tenant_id = old.tenant_id and booking_group_id = old.id;
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.checkout_session_id is not null then
    insert into stripe_checkout_sessions (checkout_session_id, tenant_id, booking_group_id)
    values (new.checkout_session_id, new.tenant_id, new.id);
  end if;
  return null;
end $function$;
;
CREATE OR REPLACE FUNCTION public.booking_requests_keep_id_lookup()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  if tg_op = 'DELETE' then
    delete from booking_request_ids where booking_request_id = old.id and tenant_id = old.tenant_id;
  else
    insert into booking_request_ids (booking_request_id, tenant_id) values (new.id, new.tenant_id);
  end if;
  return null;
end $function$;
;
create trigger facilities_slug_lookup after insert or delete or update of slug, tenant_id, id on facilities
  for each row execute function facilities_keep_slug_lookup();
create trigger booking_groups_session_lookup after insert or delete or update of checkout_session_id, tenant_id, id
  on booking_groups for each row execute function booking_groups_keep_session_lookup();
create trigger booking_requests_id_lookup after insert or delete on booking_requests
  for each row execute function booking_requests_keep_id_lookup();

-- Bookings made on the booking site say so.
alter type reservation_source add value if not exists 'booking_site';

-- The emailed code of a booking request goes out through the guest-message outbox like every guest mail. The code
-- itself is never stored: the worker derives it again from the request's id (lib/booking-site/booking-code.ts).
alter type message_kind add value if not exists 'booking_code';
alter table messages add column booking_request_id uuid;
alter table messages add constraint messages_booking_request_fkey
  foreign key (tenant_id, booking_request_id) references booking_requests (tenant_id, id) on delete cascade;
