-- Issue 31, item 2: the guest register of Japan's lodging law (旅館業法): every guest of a stay at a `jp`
-- facility — name, address, nationality, occupation; for a guest who is not Japanese and has no address in
-- Japan, the passport's number and a photo of it — kept three years after the stay (decision 028).
--
-- Errors raised here and in prisma/sql/registration (lib/db/errors.ts maps them):
--   UG001 the register is refused as written (a guest without a needed passport, an image that is not JPEG/PNG
--         or is larger than 5 MB, 0 or more than 10 guests)
--   UG002 the stay takes no register now (its facility keeps none, or the stay has ended)
--   UG003 a register row is deleted before its retention ends

-- One row per guest of a stay's register, in the order the guest gave them. The passport's number and image
-- are pgcrypto ciphertext under the install's data key of `key_version` (APP_DATA_KEY, like provider secrets).
-- `retain_until` is the stay's end plus three years, written by PostgreSQL (trigger), never by the application.
create table guest_registrations (
  tenant_id uuid not null references tenants (id) on delete cascade,
  id uuid not null default gen_random_uuid(),
  reservation_id uuid not null,
  position integer not null check (position between 1 and 10),
  name text not null check (length(btrim(name)) between 1 and 200),
  address text not null check (length(btrim(address)) between 1 and 500),
  address_in_japan boolean not null,
  nationality text not null check (nationality ~ '^[A-Z]{2}$'),
  occupation text check (length(occupation) <= 100),
  passport_number bytea,
  passport_image bytea,
  passport_image_type text check (passport_image_type in ('image/jpeg', 'image/png')),
  key_version integer check (key_version >= 1),
  retain_until timestamptz not null,
  recorded_at timestamptz not null default now(),
  primary key (tenant_id, id),
  unique (tenant_id, reservation_id, position),
  foreign key (tenant_id, reservation_id) references reservations (tenant_id, id),
  -- The law's rule, row by row: a foreign guest without an address in Japan has both passport fields.
  constraint guest_registrations_passport_needed
    check (nationality = 'JP' or address_in_japan or (passport_number is not null and passport_image is not null)),
  check ((passport_number is null and passport_image is null) or key_version is not null),
  check ((passport_image is null) = (passport_image_type is null))
);
create index guest_registrations_retention on guest_registrations (retain_until);

-- Privileges. Nobody writes the register directly: the guest's PUT (app_registration_replace) and the sweep
-- (app_registration_sweep) are definer functions. Staff and the service role read only the columns that say
-- whether a stay's register exists; the personal columns (name … passport) are readable by no application
-- role, only through app_register_rows / app_register_passport_image, which refuse anyone but a manager.
grant select (tenant_id, id, reservation_id, position, retain_until, recorded_at)
  on guest_registrations to app_authenticated, app_service;
alter table guest_registrations enable row level security;
alter table guest_registrations force row level security;
create policy service_all on guest_registrations to app_service using (true) with check (true);
create policy tenant_isolation on guest_registrations to app_authenticated
  using (tenant_id = app_current_tenant()) with check (tenant_id = app_current_tenant());
do $$
begin
  execute format('create policy definer_functions on guest_registrations to %I using (true) with check (true)', current_user);
end $$;

-- The guest page says whether the register is needed (the facility's mode).
grant select (registration) on facilities to app_anon;

-- sql-file-exception: the triggers below need their functions now (their files in prisma/sql/registration hold them)
CREATE OR REPLACE FUNCTION public.guest_registrations_set_retention()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  select r.ends_at + interval '3 years' into strict new.retain_until
    from reservations r where r.tenant_id = new.tenant_id and r.id = new.reservation_id;
  return new;
end $function$;
;
CREATE OR REPLACE FUNCTION public.guest_registrations_keep_until_retention()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  if old.retain_until <= now() then
    return old;
  end if;
  -- Before its retention ends, a register is replaced only while its stay is still ahead or under way (the
  -- guest's own PUT, app_registration_replace); once the stay has ended it is the legal record.
  if exists (select 1 from reservations r
              where r.tenant_id = old.tenant_id and r.id = old.reservation_id
                and r.status in ('held', 'confirmed', 'checked_in') and r.ends_at > now()) then
    return old;
  end if;
  raise exception 'the guest register of this stay is kept until %', old.retain_until using errcode = 'UG003';
end $function$;
;
CREATE OR REPLACE FUNCTION public.reservations_keep_register_retention()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  update guest_registrations set retain_until = new.ends_at + interval '3 years'
   where tenant_id = new.tenant_id and reservation_id = new.id;
  return null;
end $function$;
;
create trigger guest_registrations_retention before insert or update of retain_until, reservation_id, tenant_id
  on guest_registrations for each row execute function guest_registrations_set_retention();
create trigger guest_registrations_kept before delete on guest_registrations
  for each row execute function guest_registrations_keep_until_retention();
-- A stay that is extended or ends early keeps its register three years from its actual end.
create trigger reservations_register_retention after update of ends_at on reservations
  for each row when (old.ends_at is distinct from new.ends_at) execute function reservations_keep_register_retention();
