-- Cost grows with the work, not with history (issue 16, part 4): the audit page, the desk's day and the
-- expiry sweep read only what they show, however many years of rows lie behind them. Measured by
-- `npm run bench:history` (docs/PERFORMANCE.md, "Cost with history"). Every index leads with tenant_id.
--
-- Row-level security keeps a condition whose operator is not leakproof out of index conditions (it must
-- run after the policy's): enum comparisons (`status = 'checked_in'`) and range overlap (`&&`) are not,
-- timestamp, uuid and text comparisons are. So the indexes below serve leakproof conditions, a status
-- becomes a partial index's predicate (proved from the query, not evaluated before the policy), and the
-- one function that overlapped ranges compares their bounds instead.

-- The audit log filtered by action or by room, newest first, a keyset page at a time (the subject
-- filter has audit_events_subject: a subject's rows are few). Without them a rare action walked the
-- tenant's whole log through audit_events_tenant_time.
create index audit_events_action_time on audit_events (tenant_id, action, occurred_at desc, id desc);
create index audit_events_room_time on audit_events (tenant_id, room_id, occurred_at desc, id desc)
  where room_id is not null;

-- The desk's day: stays ending from a day and a half ago on, and every checked-in stay whatever its
-- dates (a BitmapOr of the two). Without them it read every stay the tenant ever had.
create index reservations_tenant_end on reservations (tenant_id, ends_at);
create index reservations_checked_in on reservations (tenant_id) where status = 'checked_in';

-- Another live stay of the room from now on (the early check-in's rule): the room's stays that end
-- after now, not all of its past ones.
create index reservations_room_end on reservations (tenant_id, room_id, ends_at);

-- A stay's keys (the desk's live keys, superseded offline codes and sync state) read every key of the
-- tenant: access_keys_by_reservation, created by 20261202060000_db_cost (found there for the guest page),
-- serves these too.

-- Whether another live stay of the room overlaps [now, the reservation's start). The same rule as
-- before, with the overlap of two half-open ranges written as the comparison of their bounds (the
-- later range is empty once the stay has started), so the room's past stays are not read.
-- A custom plan on every call: after five calls PostgreSQL 18 tries a generic plan, which, not knowing
-- the tenant, costs "this room's stays" at the average tenant's few and picks reservations_no_overlap
-- (tenant and room only, ends_at a filter) — 3,500 buffers a call for a room with ten years of stays.
create or replace function app_room_free_until_start(p_tenant_id uuid, p_reservation_id uuid) returns boolean
  language sql stable
  set search_path = pg_catalog, public
  set plan_cache_mode = force_custom_plan
as $$
  select not exists (
    select 1 from reservations r
      join reservations other on other.tenant_id = r.tenant_id and other.room_id = r.room_id and other.id <> r.id
     where r.tenant_id = p_tenant_id and r.id = p_reservation_id
       and now() < r.starts_at
       and other.ends_at > now() and other.starts_at < r.starts_at
       and other.status in ('held', 'confirmed', 'checked_in'))
$$;
