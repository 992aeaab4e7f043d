-- The database cost of the domain operations (issue 16, part 3; `npm run bench:db`).

-- 1. The policies' session readers become inlinable. Every row-level security policy calls
--    app_current_tenant() (the guest's, app_guest_token_hash()) for rows it filters, and the planner
--    calls it again to estimate selectivity; with `set search_path` PostgreSQL cannot inline a SQL
--    function, so each call ran as a function call of its own (pg_stat_statements: 41 of them per desk
--    page load, more while a connection's plans are still custom). A SQL-standard body (BEGIN ATOMIC)
--    is parsed once, here, with every name resolved now, so it needs no search_path to be safe, and
--    the planner inlines it into the policy as the plain expression. Same results: null when the
--    setting is missing or empty.
create or replace function app_current_tenant() returns uuid
  language sql stable
begin atomic
  select nullif(pg_catalog.current_setting('app.tenant_id', true), '')::pg_catalog.uuid;
end;

create or replace function app_current_user() returns uuid
  language sql stable
begin atomic
  select nullif(pg_catalog.current_setting('app.user_id', true), '')::pg_catalog.uuid;
end;

create or replace function app_guest_token_hash() returns bytea
  language sql stable
begin atomic
  select pg_catalog.decode(nullif(pg_catalog.current_setting('app.guest_token_hash', true), ''), 'hex');
end;

-- 2. A reservation's keys (the guest page and its poll, the check-in's superseded keys, the desk's
--    lists) were read by scanning every key of the tenant: the only indexes on reservation_id were
--    partial (one pre-issued key, one active key).
create index access_keys_by_reservation on access_keys (tenant_id, reservation_id, created_at desc);

-- 3. The one-live-PIN-per-lock check (trigger on every door a key gets) scanned every door of the
--    tenant; it looks at the live doors of one lock, which this index holds and nothing else.
create index key_lock_codes_live_by_lock on key_lock_codes (tenant_id, lock_id)
  where state not in ('removed', 'failed');
