-- Issue 31, item 4: a guest extends their stay from the key page (decision 029).
--
-- An extension is a row of stay_extensions: the stay's end it starts from, the end asked for, its price (the rate
-- table's, computed on the server) and how it is paid. Applied at once where the facility takes no online payment
-- (the amount is owed at the property); where it does, the extension first HOLDS the room from the stay's end to the
-- new end (status `held`) while the guest pays through Stripe Checkout, and is applied by the paid
-- `checkout.session.completed`, or released at the hold's end / when the session expired.
--
-- The hold is a row of room_holds, written by a trigger on stay_extensions like every other hold: the exclusion
-- constraint room_holds_no_overlap decides whether the room is free for the added time, never a read, and an
-- extension racing another booking for the same nights gets the room or a 23P01 (409 room_unavailable), never both.
-- It belongs to the stay's own reservation (the constraint lets a stay's holds meet each other), so applying it
-- (the stay's own row grows, the extension's row goes, in one transaction) never conflicts with itself.
create type stay_extension_status as enum ('held', 'applied', 'released', 'refunded');

create table stay_extensions (
  tenant_id uuid not null references tenants (id) on delete cascade,
  id uuid not null default gen_random_uuid(),
  reservation_id uuid not null,
  room_id uuid not null,
  -- the stay's end when the extension was asked for; it is applied only onto that end
  from_ends_at timestamptz not null,
  ends_at timestamptz not null,
  amount_cents integer not null check (amount_cents >= 0 and amount_cents <= 100000000),
  currency text not null check (currency ~ '^[a-z]{3}$'),
  payment_mode payment_mode not null,
  status stay_extension_status not null,
  hold_expires_at timestamptz,
  checkout_session_id text,
  checkout_url text,
  payment_intent_id text,
  paid_at timestamptz,
  refund_id text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (tenant_id, id),
  foreign key (tenant_id, reservation_id) references reservations (tenant_id, id) on delete cascade,
  foreign key (tenant_id, room_id) references rooms (tenant_id, id),
  check (ends_at > from_ends_at),
  check (status <> 'held' or hold_expires_at is not null)
);
-- At most one extension waiting for its payment per stay.
create unique index stay_extensions_one_held on stay_extensions (tenant_id, reservation_id) where status = 'held';
create unique index stay_extensions_checkout_session on stay_extensions (tenant_id, checkout_session_id)
  where checkout_session_id is not null;
create index stay_extensions_reservation on stay_extensions (tenant_id, reservation_id);

alter table stay_extensions enable row level security;
alter table stay_extensions force row level security;
create policy service_all on stay_extensions to app_service using (true) with check (true);
create policy tenant_isolation on stay_extensions to app_authenticated
  using (tenant_id = app_current_tenant()) with check (tenant_id = app_current_tenant());
grant select on stay_extensions to app_authenticated;
grant select, insert, update, delete on stay_extensions to app_service;

-- The held extension's row of room_holds: a stay's own dates are the one row without a key or an extension.
alter table room_holds add column extension_id uuid;
alter table room_holds add constraint room_holds_extension_fkey
  foreign key (tenant_id, extension_id) references stay_extensions (tenant_id, id) on delete cascade;
alter table room_holds add constraint room_holds_key_or_extension check (key_id is null or extension_id is null);
drop index room_holds_stay;
create unique index room_holds_stay on room_holds (tenant_id, reservation_id) where key_id is null and extension_id is null;
create unique index room_holds_extension on room_holds (tenant_id, extension_id) where extension_id is not null;

-- sql-file-exception: the trigger below needs its function now, and reservations_hold_room's conflict target must
-- match the new partial index before any stay is written (their files in prisma/sql/stays hold them)
CREATE OR REPLACE FUNCTION public.reservations_hold_room()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_during tstzrange := tstzrange(new.starts_at, new.ends_at, '[)');
begin
  if new.status = 'cancelled' then
    -- the stay's own dates and any extension it was holding
    delete from room_holds where tenant_id = new.tenant_id and reservation_id = new.id and key_id is null;
    return null;
  end if;
  if tg_op = 'UPDATE' and old.status <> 'cancelled' and new.room_id = old.room_id
     and new.starts_at = old.starts_at and new.ends_at = old.ends_at then
    return null;
  end if;
  perform app_yield_key_leads(new.tenant_id, new.room_id, new.id, v_during);
  insert into room_holds (tenant_id, room_id, reservation_id, during)
  values (new.tenant_id, new.room_id, new.id, v_during)
  on conflict (tenant_id, reservation_id) where key_id is null and extension_id is null
  do update set room_id = excluded.room_id, during = excluded.during;
  return null;
end $function$;
;
CREATE OR REPLACE FUNCTION public.stay_extensions_hold_room()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_during tstzrange := tstzrange(new.from_ends_at, new.ends_at, '[)');
begin
  if new.status <> 'held' then
    delete from room_holds where tenant_id = new.tenant_id and extension_id = new.id;
    return null;
  end if;
  if tg_op = 'UPDATE' and old.status = 'held' then
    return null;
  end if;
  perform app_yield_key_leads(new.tenant_id, new.room_id, new.reservation_id, v_during);
  insert into room_holds (tenant_id, room_id, reservation_id, extension_id, during)
  values (new.tenant_id, new.room_id, new.reservation_id, new.id, v_during);
  return null;
end $function$;
;
create trigger stay_extensions_hold_room after insert or update of status on stay_extensions
  for each row execute function stay_extensions_hold_room();
