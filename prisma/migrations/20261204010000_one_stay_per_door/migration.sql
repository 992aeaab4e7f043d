-- Issue 28, items 3, 4 and 5: a PIN works on a door only for the stay that holds the room then.
--
-- The invariant: for each room, the times held by different stays never overlap, where a stay holds
-- its own [starts_at, ends_at) and the window of each of its guest keys that can open the door —
-- a live key, or an offline code (which no one can take off the lock before its end). It lives in
-- one exclusion constraint, `room_holds_no_overlap`, on rows that only triggers write: a row per
-- non-cancelled reservation, kept by a trigger on `reservations`, and a row per key that holds the
-- door, kept by a trigger on `access_keys`. Every path that writes a stay or a key window (booking,
-- pre-issue, check-in, early check-in, move, new dates, re-issue, offline and backup codes, a path
-- written tomorrow) passes through them; none can leave two stays' keys on one door at once.
--
-- A pre-issued key's lead (`key_lead_minutes` before the start) is soft: it yields to a stay booked
-- into it later, whatever the booking order (the key's start moves to that stay's end, the lock is
-- told through `vendor_rewindow_key`). A live key of a checked-in guest, and an offline code, are hard:
-- a booking into their time is refused (23P01 → 409 room_unavailable).
--
-- Errors raised here (lib/db/errors.ts maps them):
--   UK005 the stay key was revoked by staff; only a re-issue makes a successor → 409 key_revoked

-- 1. What each stay holds of each room.
create table room_holds (
  tenant_id uuid not null,
  id uuid not null default gen_random_uuid(),
  room_id uuid not null,
  reservation_id uuid not null,
  -- null: the stay's own dates; else the key whose window this is
  key_id uuid,
  during tstzrange not null check (not isempty(during) and not lower_inf(during) and not upper_inf(during)),
  -- a pre-issued key's window without an offline code: it yields to a stay booked into its lead
  soft boolean not null default false,
  primary key (tenant_id, id),
  foreign key (tenant_id, room_id) references rooms (tenant_id, id),
  foreign key (tenant_id, reservation_id) references reservations (tenant_id, id) on delete cascade,
  foreign key (tenant_id, key_id) references access_keys (tenant_id, id) on delete cascade,
  constraint room_holds_no_overlap
    exclude using gist (tenant_id with =, room_id with =, during with &&, reservation_id with <>)
);
create unique index room_holds_stay on room_holds (tenant_id, reservation_id) where key_id is null;
create unique index room_holds_key on room_holds (tenant_id, key_id) where key_id is not null;

-- Only the triggers below write it (after the backfill): a statement of any role is refused.
create function room_holds_written_by_triggers() returns trigger
  language plpgsql
  set search_path = pg_catalog, public
as $$
begin
  if pg_trigger_depth() < 2 then
    raise exception 'room_holds is kept by the triggers on reservations and access_keys' using errcode = '42501';
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end $$;

alter table room_holds enable row level security;
alter table room_holds force row level security;
create policy service_all on room_holds to app_service
  using (app_current_tenant() is null or tenant_id = app_current_tenant())
  with check (app_current_tenant() is null or tenant_id = app_current_tenant());
create policy tenant_isolation on room_holds to app_authenticated
  using (tenant_id = app_current_tenant());
grant select, insert, update, delete on room_holds to app_service;
grant select on room_holds to app_authenticated;

-- 2. Whether a key holds its door: a live guest or backup key of a stay, or one whose offline code
--    stays valid on its lock until its end, revoked or not.
create function app_key_is_offline(p_tenant_id uuid, p_key_id uuid) returns boolean
  language sql stable
  set search_path = pg_catalog, public
as $$
  select exists (select 1 from key_lock_codes d where d.tenant_id = p_tenant_id and d.key_id = p_key_id and d.offline)
$$;

create function app_key_holds_door(p_key access_keys) returns boolean
  language sql stable
  set search_path = pg_catalog, public
as $$
  select p_key.kind in ('guest', 'backup') and p_key.reservation_id is not null
     and (p_key.status in ('pre_issued', 'active') or app_key_is_offline(p_key.tenant_id, p_key.id))
$$;

-- 3. A window change of a live key, on the record and on every door that has its code (the job
--    `vendor_rewindow_key`), audited `key.window_changed` with the reason.
create function app_rewindow_key(p_tenant_id uuid, p_key access_keys, p_from timestamptz, p_to timestamptz, p_reason text,
                                 p_actor_type actor_type, p_actor_id text, p_actor_label text)
  returns void
  language plpgsql volatile
  set search_path = pg_catalog, public
as $$
begin
  if p_from = p_key.valid_from and p_to = p_key.expires_at then
    return;
  end if;
  update access_keys set valid_from = p_from, expires_at = p_to where tenant_id = p_tenant_id and id = p_key.id;
  if p_key.kind = 'guest' then
    update key_lock_codes set rewindow = true, updated_at = now()
     where tenant_id = p_tenant_id and key_id = p_key.id and state in ('pending', 'setting', 'set');
    perform app_enqueue_job('vendor_rewindow_key', jsonb_build_object('tenantId', p_tenant_id, 'keyId', p_key.id),
                            queue_name => 'key:' || p_key.id, max_attempts => 8);
  end if;
  perform app_audit(p_tenant_id, p_actor_type, p_actor_id, p_actor_label, 'key.window_changed', 'access_key', p_key.id,
                    p_key.room_id, p_reason,
                    jsonb_build_object('reservationId', p_key.reservation_id,
                                       'from', jsonb_build_object('validFrom', p_key.valid_from, 'expiresAt', p_key.expires_at),
                                       'to', jsonb_build_object('validFrom', p_from, 'expiresAt', p_to)));
end $$;

-- 4. A stay written into a room: the soft leads of other stays' pre-issued keys that reach into it
--    move their start to its end (they start after it: a lead is before its own stay's start).
--    What is left overlapping is hard, and the constraint refuses the stay.
create function app_yield_key_leads(p_tenant_id uuid, p_room_id uuid, p_reservation_id uuid, p_during tstzrange)
  returns void
  language plpgsql volatile
  set search_path = pg_catalog, public
as $$
declare
  v_key access_keys;
begin
  for v_key in
    select k.* from room_holds h
      join access_keys k on k.tenant_id = h.tenant_id and k.id = h.key_id
      join reservations o on o.tenant_id = k.tenant_id and o.id = k.reservation_id
     where h.tenant_id = p_tenant_id and h.room_id = p_room_id and h.reservation_id <> p_reservation_id
       and h.soft and h.during && p_during
       and o.starts_at >= upper(p_during) and k.expires_at > upper(p_during)
     order by k.id
       for update of k
  loop
    perform app_rewindow_key(p_tenant_id, v_key, upper(p_during), v_key.expires_at, 'room_booked_before',
                             'system', null, 'key lead');
  end loop;
end $$;

-- 5. The triggers that keep room_holds.
create function reservations_hold_room() returns trigger
  language plpgsql
  set search_path = pg_catalog, public
as $$
declare
  v_during tstzrange := tstzrange(new.starts_at, new.ends_at, '[)');
begin
  if new.status = 'cancelled' then
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
  on conflict (tenant_id, reservation_id) where key_id is null
  do update set room_id = excluded.room_id, during = excluded.during;
  return null;
end $$;

create function access_keys_hold_room() returns trigger
  language plpgsql
  set search_path = pg_catalog, public
as $$
declare
  v_offline boolean;
begin
  if not app_key_holds_door(new) then
    delete from room_holds where tenant_id = new.tenant_id and key_id = new.id;
    return null;
  end if;
  v_offline := app_key_is_offline(new.tenant_id, new.id);
  if new.status = 'pre_issued' and not v_offline then
    perform app_yield_key_leads(new.tenant_id, new.room_id, new.reservation_id, tstzrange(new.valid_from, new.expires_at, '[)'));
  end if;
  insert into room_holds (tenant_id, room_id, reservation_id, key_id, during, soft)
  values (new.tenant_id, new.room_id, new.reservation_id, new.id, tstzrange(new.valid_from, new.expires_at, '[)'),
          new.status = 'pre_issued' and not v_offline)
  on conflict (tenant_id, key_id) where key_id is not null
  do update set during = excluded.during, soft = excluded.soft;
  return null;
end $$;

-- A door that takes an offline code makes its key hard (it can no longer yield or be taken off).
create function key_lock_codes_hold_room() returns trigger
  language plpgsql
  set search_path = pg_catalog, public
as $$
begin
  update room_holds set soft = false where tenant_id = new.tenant_id and key_id = new.key_id and soft;
  return null;
end $$;

-- 6. Today's rows (before the triggers exist, so nothing here moves twice). Stays first (they never overlap: reservations_no_overlap), then each key that
--    holds its door: a pre-issued key's lead that reaches into another stay starts at that stay's
--    end; a hard key that overlaps another stay (the holes this migration closes) is reported and
--    left out, so an install upgrades, and its key ends as it would have.
do $$
declare
  v_key access_keys;
  v_from timestamptz;
begin
  insert into room_holds (tenant_id, room_id, reservation_id, during)
  select tenant_id, room_id, id, tstzrange(starts_at, ends_at, '[)') from reservations where status <> 'cancelled';
  for v_key in select k.* from access_keys k where app_key_holds_door(k) order by k.valid_from, k.id loop
    v_from := v_key.valid_from;
    if v_key.status = 'pre_issued' and not app_key_is_offline(v_key.tenant_id, v_key.id) then
      select greatest(v_from, coalesce(max(upper(h.during)), v_from)) into v_from
        from room_holds h
       where h.tenant_id = v_key.tenant_id and h.room_id = v_key.room_id and h.reservation_id <> v_key.reservation_id
         and h.during && tstzrange(v_key.valid_from, v_key.expires_at, '[)')
         and upper(h.during) < v_key.expires_at;
      if v_from <> v_key.valid_from then
        update access_keys set valid_from = v_from where tenant_id = v_key.tenant_id and id = v_key.id;
        update key_lock_codes set rewindow = true where tenant_id = v_key.tenant_id and key_id = v_key.id
           and state in ('pending', 'setting', 'set');
        perform app_enqueue_job('vendor_rewindow_key', jsonb_build_object('tenantId', v_key.tenant_id, 'keyId', v_key.id),
                                queue_name => 'key:' || v_key.id, max_attempts => 8);
      end if;
    end if;
    begin
      insert into room_holds (tenant_id, room_id, reservation_id, key_id, during, soft)
      values (v_key.tenant_id, v_key.room_id, v_key.reservation_id, v_key.id, tstzrange(v_from, v_key.expires_at, '[)'),
              v_key.status = 'pre_issued' and not app_key_is_offline(v_key.tenant_id, v_key.id));
    exception when exclusion_violation then
      raise warning 'key % of reservation % overlaps another stay of room %; not held', v_key.id, v_key.reservation_id, v_key.room_id;
    end;
  end loop;
end $$;

-- From here on, only the triggers write room_holds.
create trigger room_holds_written_by_triggers before insert or update or delete on room_holds
  for each row execute function room_holds_written_by_triggers();
create trigger reservations_hold_room after insert or update of room_id, starts_at, ends_at, status on reservations
  for each row execute function reservations_hold_room();
create trigger access_keys_hold_room after insert or update of status, valid_from, expires_at on access_keys
  for each row execute function access_keys_hold_room();
create trigger key_lock_codes_hold_room after insert or update of offline on key_lock_codes
  for each row when (new.offline) execute function key_lock_codes_hold_room();

-- 7. The one window function every key of a stay goes through: a pre-issued key from the facility's
--    key lead before the start, a checked-in stay's key from now or its start, whichever is first —
--    and neither before the end of whatever another stay holds of the room before this stay starts.
--    `p_from` asks for another start (a re-issue keeps its key's); the same clamp applies to it.
drop function app_stay_key_window(uuid, uuid, key_status);
create function app_stay_key_window(p_tenant_id uuid, p_reservation_id uuid, p_status key_status,
                                    p_from timestamptz default null,
                                    out valid_from timestamptz, out expires_at timestamptz)
  language sql stable
  set search_path = pg_catalog, public
as $$
  select greatest(w.natural_from,
                  coalesce((select max(upper(h.during)) from room_holds h
                             where h.tenant_id = w.tenant_id and h.room_id = w.room_id and h.reservation_id <> w.id
                               and not h.soft
                               and h.during && tstzrange(w.natural_from, w.starts_at, '[)')), w.natural_from)),
         w.ends_at
    from (select r.tenant_id, r.id, r.room_id, r.starts_at, r.ends_at,
                 coalesce(p_from,
                          case when p_status = 'active' then least(now(), r.starts_at)
                               else r.starts_at - make_interval(mins => f.key_lead_minutes) end) as natural_from
            from reservations r
            join rooms ro on ro.tenant_id = r.tenant_id and ro.id = r.room_id
            join facilities f on f.tenant_id = ro.tenant_id and f.id = ro.facility_id
           where r.tenant_id = p_tenant_id and r.id = p_reservation_id) w
$$;

-- A room free of other stays' hard holds over a span (a soft lead yields, so it does not count).
create function app_room_free(p_tenant_id uuid, p_room_id uuid, p_reservation_id uuid, p_during tstzrange) returns boolean
  language sql stable
  set search_path = pg_catalog, public
as $$
  select isempty(p_during) or not exists (
    select 1 from room_holds h
     where h.tenant_id = p_tenant_id and h.room_id = p_room_id and h.reservation_id is distinct from p_reservation_id
       and not h.soft and h.during && p_during)
$$;

-- 8. Pre-issue through the window function (it took key_lead before the start, whoever was in the room).
create or replace function pre_issue_key(p_tenant_id uuid, p_reservation_id uuid, p_actor_type actor_type, p_actor_id text,
                                         p_actor_label text)
  returns access_keys
  language plpgsql
  set search_path = pg_catalog, public
as $$
declare
  v_key access_keys;
  v_res reservations;
  v_window record;
begin
  perform pg_advisory_xact_lock(hashtextextended(p_reservation_id::text, 1));
  select * into v_key from access_keys
   where tenant_id = p_tenant_id and reservation_id = p_reservation_id and status = 'pre_issued' and kind <> 'backup';
  if found then return v_key; end if;
  select r.* into strict v_res from reservations r where r.tenant_id = p_tenant_id and r.id = p_reservation_id;
  select * into v_window from app_stay_key_window(p_tenant_id, p_reservation_id, 'pre_issued');
  v_key := app_insert_key(p_tenant_id, v_res.id, null, v_res.room_id, 'pre_issued', v_window.valid_from, v_window.expires_at);
  perform app_audit(p_tenant_id, p_actor_type, p_actor_id, p_actor_label, 'key.pre_issued', 'access_key', v_key.id, v_key.room_id, null,
                    jsonb_build_object('reservationId', v_res.id));
  return v_key;
end $$;

-- 9. The stay key of a check-in: the live one, else a new one — only for a stay that is checked in
--    and not over. After check-out → UR001 (illegal_transition). After staff revoked the stay key
--    (its latest key, no successor) → UK005 (key_revoked): the next tap never undoes a revocation;
--    only reissue_key makes a successor.
create or replace function issue_checkin_key(p_tenant_id uuid, p_check_in_id uuid, p_actor_type actor_type, p_actor_id text,
                                             p_actor_label text)
  returns access_keys
  language plpgsql
  set search_path = pg_catalog, public
as $$
declare
  v_key access_keys;
  v_res reservations;
  v_stale uuid;
  v_last access_keys;
  v_window record;
begin
  perform pg_advisory_xact_lock(hashtextextended(p_check_in_id::text, 0));
  select r.* into v_res from check_ins c join reservations r on r.tenant_id = c.tenant_id and r.id = c.reservation_id
   where c.tenant_id = p_tenant_id and c.id = p_check_in_id;
  if not found then
    raise exception 'check-in % not found', p_check_in_id using errcode = 'UN404';
  end if;
  for v_stale in select id from access_keys
    where tenant_id = p_tenant_id and check_in_id = p_check_in_id and status = 'active' and expires_at <= now()
  loop
    perform app_end_key(p_tenant_id, v_stale, 'expired', 'stay_ended', 'system', null, 'expiry');
  end loop;
  select * into v_key from access_keys
   where tenant_id = p_tenant_id and check_in_id = p_check_in_id and status = 'active' and kind <> 'backup';
  if found then return v_key; end if;
  if v_res.status = 'checked_out' then
    raise exception 'This stay is checked out; it gets no new key.' using errcode = 'UR001',
      detail = 'from=checked_out to=keyed';
  end if;
  if v_res.status <> 'checked_in' or v_res.ends_at <= now() then
    raise exception 'reservation % cannot have a key', v_res.id using errcode = 'UK004';
  end if;
  -- The stay's latest key that nothing replaced: revoked by someone → that revocation stands.
  select k.* into v_last from access_keys k
   where k.tenant_id = p_tenant_id and k.reservation_id = v_res.id and k.kind = 'guest' and k.check_in_id is not null
     and not exists (select 1 from access_keys s where s.tenant_id = k.tenant_id and s.replaces = k.id)
   order by k.created_at desc, k.id limit 1;
  if found and v_last.status = 'revoked' then
    raise exception 'The stay key was revoked (%); re-issue it with a reason to give the guest a new one.', v_last.revoked_reason
      using errcode = 'UK005', detail = v_last.id::text;
  end if;
  select * into v_window from app_stay_key_window(p_tenant_id, v_res.id, 'active');
  v_key := app_insert_key(p_tenant_id, v_res.id, p_check_in_id, v_res.room_id, 'active', v_window.valid_from, v_window.expires_at);
  perform app_audit(p_tenant_id, p_actor_type, p_actor_id, p_actor_label, 'key.issued', 'access_key', v_key.id, v_key.room_id, null,
                    jsonb_build_object('reservationId', v_res.id, 'checkInId', p_check_in_id));
  return v_key;
end $$;

-- 10. A stay's new key (move, re-issue): the window asked for (a re-issue keeps its key's), never
--     before what the window function allows.
create or replace function app_issue_stay_key(p_tenant_id uuid, p_reservation_id uuid, p_replaces uuid, p_action text, p_reason text,
                                              p_actor_type actor_type, p_actor_id text, p_actor_label text,
                                              p_valid_from timestamptz default null, p_expires_at timestamptz default null)
  returns access_keys
  language plpgsql volatile
  set search_path = pg_catalog, public
as $$
declare
  v_res reservations;
  v_check_in uuid;
  v_status key_status;
  v_window record;
  v_key access_keys;
begin
  select * into strict v_res from reservations where tenant_id = p_tenant_id and id = p_reservation_id;
  if v_res.status not in ('held', 'confirmed', 'checked_in') then
    raise exception 'A % stay gets no new key.', replace(v_res.status::text, '_', ' ') using errcode = 'UR001',
      detail = format('from=%s to=keyed', v_res.status);
  end if;
  select id into v_check_in from check_ins where tenant_id = p_tenant_id and reservation_id = p_reservation_id;
  v_status := case when v_res.status = 'checked_in' then 'active' else 'pre_issued' end;
  select * into v_window from app_stay_key_window(p_tenant_id, p_reservation_id, v_status, p_valid_from);
  v_key := app_insert_key_of(p_tenant_id, p_reservation_id, case when v_status = 'active' then v_check_in end, v_res.room_id,
                             v_status, v_window.valid_from, coalesce(p_expires_at, v_window.expires_at), 'guest', null, p_replaces);
  perform app_audit(p_tenant_id, p_actor_type, p_actor_id, p_actor_label, p_action, 'access_key', v_key.id, v_key.room_id, p_reason,
                    jsonb_strip_nulls(jsonb_build_object('reservationId', p_reservation_id, 'checkInId', v_key.check_in_id,
                                                         'replaces', p_replaces)));
  return v_key;
end $$;

-- 11. Booking: a room is taken where another stay holds it hard (its dates, a checked-in guest's key,
--     an offline code), reported for every room as before (UB001), holding nothing. Each item may
--     carry the guest's `locale` (migration 20261204005000_guest_language).
create or replace function reserve_booking_group(p_tenant_id uuid, p_group_id uuid, p_guest_id uuid, p_items jsonb,
                                                 p_source reservation_source, p_plan_name text, p_external_ref text,
                                                 p_external_updated_at timestamptz, p_pre_issue boolean,
                                                 p_actor_type actor_type, p_actor_id text, p_actor_label text)
  returns table(reservation_id uuid, room_id uuid)
  language plpgsql
  set search_path = pg_catalog, public
as $$
declare
  v_item jsonb;
  v_room_id uuid;
  v_conflicts jsonb;
  v_missing jsonb;
  v_guest_ref text;
  v_reservation_id uuid;
  v_starts timestamptz;
  v_ends timestamptz;
begin
  for v_room_id in select distinct (i->>'roomId')::uuid from jsonb_array_elements(p_items) i order by 1 loop
    perform pg_advisory_xact_lock(hashtextextended(v_room_id::text, 2));
  end loop;

  select coalesce(jsonb_agg(distinct i->>'roomId'), '[]') into v_missing
    from jsonb_array_elements(p_items) i
   where not exists (select 1 from rooms r where r.tenant_id = p_tenant_id and r.id = (i->>'roomId')::uuid);
  if jsonb_array_length(v_missing) > 0 then
    raise exception 'unknown rooms' using errcode = 'UB002', detail = v_missing::text;
  end if;

  select coalesce(jsonb_agg(distinct i->>'roomId'), '[]') into v_conflicts
    from jsonb_array_elements(p_items) with ordinality as a(i, n)
   where not app_room_free(p_tenant_id, (a.i->>'roomId')::uuid, null,
                           tstzrange((a.i->>'startsAt')::timestamptz, (a.i->>'endsAt')::timestamptz, '[)'))
      or exists (
           select 1 from jsonb_array_elements(p_items) with ordinality as b(j, m)
            where b.m <> a.n and b.j->>'roomId' = a.i->>'roomId'
              and tstzrange((b.j->>'startsAt')::timestamptz, (b.j->>'endsAt')::timestamptz, '[)')
               && tstzrange((a.i->>'startsAt')::timestamptz, (a.i->>'endsAt')::timestamptz, '[)'));
  if jsonb_array_length(v_conflicts) > 0 then
    raise exception 'rooms unavailable' using errcode = 'UB001', detail = v_conflicts::text;
  end if;

  v_guest_ref := 'guest_' || left(encode(digest(p_guest_id::text, 'sha256'), 'hex'), 12);
  for v_item in select * from jsonb_array_elements(p_items) loop
    v_starts := (v_item->>'startsAt')::timestamptz;
    v_ends := (v_item->>'endsAt')::timestamptz;
    insert into reservations (tenant_id, booking_group_id, room_id, guest_id, starts_at, ends_at, status, source,
                              external_ref, external_updated_at, room_label_snapshot, plan_name_snapshot, guest_ref_snapshot,
                              locale)
    select p_tenant_id, p_group_id, ro.id, p_guest_id, v_starts, v_ends, 'confirmed', p_source,
           p_external_ref, p_external_updated_at, ro.label, p_plan_name, v_guest_ref, v_item->>'locale'
      from rooms ro where ro.tenant_id = p_tenant_id and ro.id = (v_item->>'roomId')::uuid
    returning id into v_reservation_id;
    insert into guest_links (tenant_id, id, reservation_id, token_hash, expires_at)
    values (p_tenant_id, (v_item->>'linkId')::uuid, v_reservation_id, decode(v_item->>'tokenHash', 'hex'), v_ends + interval '1 day');
    perform app_audit(p_tenant_id, p_actor_type, p_actor_id, p_actor_label, 'reservation.created', 'reservation', v_reservation_id,
                      (v_item->>'roomId')::uuid, null, jsonb_build_object('bookingGroupId', p_group_id, 'source', p_source));
    if p_pre_issue and v_ends > now() then
      perform pre_issue_key(p_tenant_id, v_reservation_id, p_actor_type, p_actor_id, p_actor_label);
    end if;
    reservation_id := v_reservation_id;
    room_id := (v_item->>'roomId')::uuid;
    return next;
  end loop;
end $$;

-- 12. An early check-in needs the room free of other stays' hard holds from now until the start.
create or replace function app_room_free_until_start(p_tenant_id uuid, p_reservation_id uuid) returns boolean
  language sql stable
  set search_path = pg_catalog, public
  set plan_cache_mode = force_custom_plan
as $$
  -- A reservation this role cannot see has no overlap to report (true), as before.
  select coalesce((select now() >= r.starts_at or app_room_free(r.tenant_id, r.room_id, r.id, tstzrange(now(), r.starts_at, '[)'))
                     from reservations r
                    where r.tenant_id = p_tenant_id and r.id = p_reservation_id), true)
$$;

-- 13. New dates: the keys follow through app_rewindow_key — except an offline code, which its lock
--     keeps as it was issued: a window inside its own stays (the door stays held until its end, and
--     the record says so); a window it cannot cover ends it (`dates_changed`, still valid on the lock
--     until its end) and a new key comes for the new window.
create or replace function change_reservation_dates(p_tenant_id uuid, p_reservation_id uuid, p_starts_at timestamptz,
                                                    p_ends_at timestamptz, p_actor_type actor_type, p_actor_id text,
                                                    p_actor_label text)
  returns reservations
  language plpgsql
  set search_path = pg_catalog, public
as $$
declare
  v_res reservations;
  v_old reservations;
  v_starts timestamptz;
  v_ends timestamptz;
  v_key access_keys;
  v_from timestamptz;
  v_to timestamptz;
  v_new access_keys;
  v_changed uuid[] := '{}';
begin
  v_old := app_lock_live_stay(p_tenant_id, p_reservation_id, 'changed');
  v_starts := coalesce(p_starts_at, v_old.starts_at);
  v_ends := coalesce(p_ends_at, v_old.ends_at);
  if v_starts = v_old.starts_at and v_ends = v_old.ends_at then
    return v_old;
  end if;
  if v_ends <= v_starts then
    raise exception 'The stay must end after it starts.' using errcode = 'UR003', detail = 'endsAt';
  end if;
  if v_ends <= now() then
    raise exception 'The new end is in the past; check the guest out instead.' using errcode = 'UR003', detail = 'endsAt';
  end if;
  if v_ends - v_starts > interval '366 days' then
    raise exception 'A stay is at most a year.' using errcode = 'UR003', detail = 'endsAt';
  end if;
  if v_old.status = 'checked_in' and v_starts <> v_old.starts_at then
    raise exception 'The guest is checked in: the stay''s start cannot change any more.' using errcode = 'UR001',
      detail = 'from=checked_in to=changed';
  end if;
  perform pg_advisory_xact_lock(hashtextextended(v_old.room_id::text, 2));
  update reservations set starts_at = v_starts, ends_at = v_ends
   where tenant_id = p_tenant_id and id = p_reservation_id returning * into v_res;
  update guest_links set expires_at = v_ends + interval '1 day'
   where tenant_id = p_tenant_id and reservation_id = p_reservation_id and ended_at is null;
  for v_key in select * from access_keys
    where tenant_id = p_tenant_id and reservation_id = p_reservation_id and status in ('pre_issued', 'active')
      and kind <> 'backup' -- a backup's code is the pool's, with the pool's window; it ends with its key
    order by created_at
  loop
    if v_key.status = 'active' then
      -- An active key has opened the door since it was issued: only its end moves.
      v_from := v_key.valid_from;
      v_to := v_ends;
    else
      select w.valid_from, w.expires_at into v_from, v_to from app_stay_key_window(p_tenant_id, p_reservation_id, v_key.status) w;
    end if;
    continue when v_from = v_key.valid_from and v_to = v_key.expires_at;
    if app_key_is_offline(p_tenant_id, v_key.id) then
      continue when v_from >= v_key.valid_from and v_to <= v_key.expires_at;
      perform app_end_key(p_tenant_id, v_key.id, 'revoked', 'dates_changed', p_actor_type, p_actor_id, p_actor_label);
      v_new := app_issue_stay_key(p_tenant_id, p_reservation_id, v_key.id, 'key.reissued', 'dates_changed',
                                  p_actor_type, p_actor_id, p_actor_label);
      v_changed := v_changed || v_new.id;
      continue;
    end if;
    perform app_rewindow_key(p_tenant_id, v_key, v_from, v_to, null, p_actor_type, p_actor_id, p_actor_label);
    v_changed := v_changed || v_key.id;
  end loop;
  perform app_audit(p_tenant_id, p_actor_type, p_actor_id, p_actor_label, 'reservation.changed', 'reservation', p_reservation_id,
                    v_res.room_id, null,
                    jsonb_build_object('from', jsonb_build_object('startsAt', v_old.starts_at, 'endsAt', v_old.ends_at),
                                       'to', jsonb_build_object('startsAt', v_starts, 'endsAt', v_ends),
                                       'changedKeyIds', to_jsonb(v_changed)));
  return v_res;
end $$;

-- 14. A re-issue of a key whose stay is over (checked out, cancelled) is refused, live key or not.
--     `p_revoke_reason` says why the old key ended (`reissued`; a replaced guest link: `link_replaced`).
drop function reissue_key(uuid, uuid, text, actor_type, text, text);
create function reissue_key(p_tenant_id uuid, p_key_id uuid, p_reason text, p_actor_type actor_type, p_actor_id text,
                            p_actor_label text, p_revoke_reason text default 'reissued')
  returns access_keys
  language plpgsql
  set search_path = pg_catalog, public
as $$
declare
  v_key access_keys;
  v_res reservations;
  v_new access_keys;
  v_live uuid;
begin
  select * into v_key from access_keys where tenant_id = p_tenant_id and id = p_key_id;
  if not found then
    raise exception 'key % not found', p_key_id using errcode = 'UN404';
  end if;
  if v_key.kind = 'backup' then
    raise exception 'A backup code comes from the lock''s pool; re-issue the key it stands in for.'
      using errcode = 'UR001', detail = format('from=%s to=reissued', v_key.status);
  end if;
  -- The stay's row first, then the key (the order check-in, cancel and check-out take).
  if v_key.reservation_id is not null then
    select * into strict v_res from reservations where tenant_id = p_tenant_id and id = v_key.reservation_id for update;
  end if;
  select * into strict v_key from access_keys where tenant_id = p_tenant_id and id = p_key_id for update;
  select * into v_new from access_keys where tenant_id = p_tenant_id and replaces = p_key_id;
  if found then
    return v_new;
  end if;
  if v_key.kind <> 'staff' and (v_res.status not in ('held', 'confirmed', 'checked_in') or v_res.ends_at <= now()) then
    raise exception 'A % stay gets no new key.', replace(v_res.status::text, '_', ' ') using errcode = 'UR001',
      detail = format('from=%s to=reissued', v_key.status);
  end if;
  if v_key.status in ('pre_issued', 'active') then
    perform app_end_key(p_tenant_id, v_key.id, 'revoked', p_revoke_reason, p_actor_type, p_actor_id, p_actor_label);
    if v_key.kind = 'staff' then
      v_new := app_insert_key_of(p_tenant_id, null, null, v_key.room_id, v_key.status, v_key.valid_from, v_key.expires_at, 'staff',
                                 jsonb_build_object('label', v_key.staff_label, 'purpose', v_key.staff_purpose,
                                                    'userId', v_key.staff_user_id, 'issuedById', p_actor_id,
                                                    'issuedByLabel', p_actor_label), v_key.id);
      perform app_audit(p_tenant_id, p_actor_type, p_actor_id, p_actor_label, 'key.reissued', 'access_key', v_new.id,
                        v_new.room_id, p_reason, jsonb_build_object('replaces', v_key.id, 'staff', true));
      return v_new;
    end if;
    return app_issue_stay_key(p_tenant_id, v_key.reservation_id, v_key.id, 'key.reissued', p_reason,
                              p_actor_type, p_actor_id, p_actor_label, v_key.valid_from, v_key.expires_at);
  end if;
  -- An ended key: only a stay that still runs and has no live key gets a new one.
  if v_key.kind = 'staff' then
    raise exception 'This staff code has ended; create a new one.' using errcode = 'UR001',
      detail = format('from=%s to=reissued', v_key.status);
  end if;
  select id into v_live from access_keys
   where tenant_id = p_tenant_id and reservation_id = v_res.id and status in ('pre_issued', 'active') and kind <> 'backup';
  if found then
    raise exception 'This stay already has a live key (%); re-issue that one.', v_live using errcode = 'UR001',
      detail = format('from=%s to=reissued', v_key.status);
  end if;
  return app_issue_stay_key(p_tenant_id, v_res.id, v_key.id, 'key.reissued', p_reason, p_actor_type, p_actor_id, p_actor_label);
end $$;

grant execute on function app_key_holds_door(access_keys), app_key_is_offline(uuid, uuid),
  app_stay_key_window(uuid, uuid, key_status, timestamptz),
  reissue_key(uuid, uuid, text, actor_type, text, text, text),
  app_rewindow_key(uuid, access_keys, timestamptz, timestamptz, text, actor_type, text, text),
  app_yield_key_leads(uuid, uuid, uuid, tstzrange), app_room_free(uuid, uuid, uuid, tstzrange)
  to app_service;
grant execute on function app_room_free(uuid, uuid, uuid, tstzrange) to app_authenticated;
