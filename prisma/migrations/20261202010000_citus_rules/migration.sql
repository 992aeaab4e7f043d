-- One database to many (issue 16, part 5): the schema keeps Citus's rules (DESIGN.md, Scaling out;
-- docs/SCALING.md), held by lib/db/citus-rules.test.ts against lib/db/table-classes.ts.
--
-- 1. Every tenant table's primary key is (tenant_id, id), so a row is found, joined and referred to
--    within its tenant's shard. The foreign keys that refer to these tables are dropped first, then
--    the primary keys and the now redundant (tenant_id, id) uniques, then everything is recreated
--    with the same definitions (they already name (tenant_id, id)). Existing rows keep their ids.
do $$
declare
  v_tables regclass[] := array[
    'facilities', 'rooms', 'guests', 'booking_groups', 'reservations', 'check_ins', 'guest_links',
    'access_keys', 'audit_events', 'api_keys', 'provider_secrets', 'subscriptions', 'billing_failures',
    'booking_sources']::regclass[];
  v_table regclass;
  v_fk record;
  v_fks jsonb := '[]';
begin
  for v_fk in
    select c.conrelid::regclass as tbl, c.conname, pg_get_constraintdef(c.oid) as def
      from pg_constraint c
     where c.contype = 'f' and c.confrelid = any(v_tables)
       and c.conname <> 'reservations_guest_id_fkey' -- recreated below with the tenant
     order by c.conrelid::regclass::text, c.conname
  loop
    v_fks := v_fks || jsonb_build_object('tbl', v_fk.tbl::text, 'name', v_fk.conname, 'def', v_fk.def);
    execute format('alter table %s drop constraint %I', v_fk.tbl, v_fk.conname);
  end loop;
  alter table reservations drop constraint reservations_guest_id_fkey;

  foreach v_table in array v_tables loop
    execute format('alter table %s drop constraint %I', v_table, v_table::text || '_pkey');
    execute format('alter table %s drop constraint if exists %I', v_table, v_table::text || '_tenant_id_id_key');
    execute format('alter table %s add constraint %I primary key (tenant_id, id)', v_table, v_table::text || '_pkey');
  end loop;

  for v_fk in select * from jsonb_to_recordset(v_fks) as f(tbl text, name text, def text) loop
    execute format('alter table %s add constraint %I %s', v_fk.tbl, v_fk.name, v_fk.def);
  end loop;
end $$;

-- 2. A reservation's guest is found within the reservation's tenant. Deleting the guest still keeps
--    the reservation and nulls guest_id only (tenant_id stays: PostgreSQL 15's column list).
alter table reservations add constraint reservations_tenant_id_guest_id_fkey
  foreign key (tenant_id, guest_id) references guests (tenant_id, id) on delete set null (guest_id);

-- 3. incidents stays on the coordinator (install-wide incidents have no tenant): a distributed table
--    cannot refer to it. messages.incident_id stays as a plain reference (incidents are resolved,
--    never deleted, except with their tenant, whose messages go too).
alter table messages drop constraint messages_incident_id_fkey;

-- 4. The global lookups: a value that must find its tenant before any tenant is known goes through a
--    small global table (a Citus reference table), then everything stays inside that tenant. Each is
--    kept in step with its rows by a trigger, and keeps the global uniqueness the old unique gave.
create table guest_link_tokens (
  token_hash bytea primary key,
  tenant_id uuid not null references tenants (id) on delete cascade,
  guest_link_id uuid not null
);
create table api_key_secrets (
  secret_hash bytea primary key,
  tenant_id uuid not null references tenants (id) on delete cascade,
  api_key_id uuid not null
);
-- A payment intent id is unique within a tenant only (migration 20261201080000): the lookup may name
-- more than one tenant, and the Stripe handler decides by the event's account which one it is.
create table stripe_payment_intents (
  payment_intent_id text not null,
  tenant_id uuid not null references tenants (id) on delete cascade,
  booking_group_id uuid not null,
  primary key (payment_intent_id, tenant_id)
);

insert into guest_link_tokens (token_hash, tenant_id, guest_link_id) select token_hash, tenant_id, id from guest_links;
insert into api_key_secrets (secret_hash, tenant_id, api_key_id) select secret_hash, tenant_id, id from api_keys;
insert into stripe_payment_intents (payment_intent_id, tenant_id, booking_group_id)
  select payment_intent_id, tenant_id, id from booking_groups where payment_intent_id is not null;

alter table guest_links drop constraint guest_links_token_hash_key;
alter table api_keys drop constraint api_keys_secret_hash_key;

create function guest_links_keep_token_lookup() returns trigger
  language plpgsql security definer
  set search_path = pg_catalog, public
as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    delete from guest_link_tokens where token_hash = old.token_hash and tenant_id = old.tenant_id and guest_link_id = old.id;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into guest_link_tokens (token_hash, tenant_id, guest_link_id) values (new.token_hash, new.tenant_id, new.id);
  end if;
  return null;
end $$;
create trigger guest_links_token_lookup after insert or delete or update of token_hash, tenant_id, id on guest_links
  for each row execute function guest_links_keep_token_lookup();

create function api_keys_keep_secret_lookup() returns trigger
  language plpgsql security definer
  set search_path = pg_catalog, public
as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    delete from api_key_secrets where secret_hash = old.secret_hash and tenant_id = old.tenant_id and api_key_id = old.id;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into api_key_secrets (secret_hash, tenant_id, api_key_id) values (new.secret_hash, new.tenant_id, new.id);
  end if;
  return null;
end $$;
create trigger api_keys_secret_lookup after insert or delete or update of secret_hash, tenant_id, id on api_keys
  for each row execute function api_keys_keep_secret_lookup();

create function booking_groups_keep_intent_lookup() returns trigger
  language plpgsql security definer
  set search_path = pg_catalog, public
as $$
begin
  if tg_op in ('UPDATE', 'DELETE') and old.payment_intent_id is not null then
    delete from stripe_payment_intents
     where payment_intent_id = old.payment_intent_id and tenant_id = old.tenant_id and booking_group_id = old.id;
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.payment_intent_id is not null then
    insert into stripe_payment_intents (payment_intent_id, tenant_id, booking_group_id)
    values (new.payment_intent_id, new.tenant_id, new.id);
  end if;
  return null;
end $$;
create trigger booking_groups_intent_lookup after insert or delete or update of payment_intent_id, tenant_id, id
  on booking_groups for each row execute function booking_groups_keep_intent_lookup();

-- Row-level security as on every table with a tenant_id: the triggers and definer functions (the
-- owner) write and read them; the service role reads the API-key and payment-intent lookups (it
-- finds the tenant from them); no other role reads them at all.
do $$
declare
  t text;
begin
  foreach t in array array['guest_link_tokens', 'api_key_secrets', 'stripe_payment_intents'] loop
    execute format('alter table %I enable row level security', t);
    execute format('alter table %I force row level security', t);
    execute format('create policy definer_functions on %I to %I using (true) with check (true)', t, current_user);
  end loop;
  foreach t in array array['api_key_secrets', 'stripe_payment_intents'] loop
    execute format('create policy service_read on %I for select to app_service
      using (app_current_tenant() is null or tenant_id = app_current_tenant())', t);
    execute format('grant select on %I to app_service', t);
  end loop;
end $$;

-- 5. A guest finds the link through guest_link_tokens, then reads within the link's tenant; the
--    guest policies name the tenant too, so every read of a guest page stays on one shard.
create or replace function app_guest_link_reservation()
  returns table (tenant_id uuid, reservation_id uuid, status reservation_status)
  language sql stable security definer
  set search_path = pg_catalog, public
as $$
  select gl.tenant_id, gl.reservation_id, r.status
    from guest_link_tokens lt
    join guest_links gl on gl.tenant_id = lt.tenant_id and gl.id = lt.guest_link_id
    join reservations r on r.tenant_id = gl.tenant_id and r.id = gl.reservation_id
   where lt.token_hash = app_guest_token_hash()
     and gl.ended_at is null
     and gl.expires_at > now()
     and r.guest_id is not null
$$;

create function app_guest_tenant_id() returns uuid
  language sql stable security definer
  set search_path = pg_catalog, public
as $$
  select l.tenant_id from app_guest_link_reservation() l where l.status not in ('cancelled', 'checked_out')
$$;
revoke execute on function app_guest_tenant_id() from public;
grant execute on function app_guest_tenant_id() to app_anon, app_authenticated, app_service;

alter policy guest_link on guest_links
  using (tenant_id = app_guest_tenant_id() and token_hash = app_guest_token_hash()
         and reservation_id = app_guest_reservation_id());
alter policy guest_link on reservations using (tenant_id = app_guest_tenant_id() and id = app_guest_reservation_id());
alter policy guest_link on access_keys
  using (tenant_id = app_guest_tenant_id() and reservation_id = app_guest_reservation_id());
alter policy guest_link on rooms
  using (tenant_id = app_guest_tenant_id()
         and id = (select r.room_id from reservations r
                    where r.tenant_id = app_guest_tenant_id() and r.id = app_guest_reservation_id()));
alter policy guest_link on facilities
  using (tenant_id = app_guest_tenant_id()
         and id = (select ro.facility_id from rooms ro
                     join reservations r on r.tenant_id = ro.tenant_id and r.room_id = ro.id
                    where r.tenant_id = app_guest_tenant_id() and r.id = app_guest_reservation_id()));
