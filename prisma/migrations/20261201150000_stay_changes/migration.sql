-- Issue 15, item 6: every stay change a clerk makes in a shift — check-out, room move, new dates,
-- a re-issued key, staff codes — each one transaction with its audit rows and its lock commands in
-- the outbox (app_enqueue_job), never a provider call. The functions take the tenant's id and touch
-- only that tenant (DESIGN.md, Scaling out).
--
-- Errors raised here (lib/db/errors.ts maps them; their messages are written for people):
--   UR001 the stay cannot change that way (cancelled, checked out, over…) → 409 illegal_transition
--   UR002 the room cannot take the stay (archived, occupied)              → 409 room_unavailable
--   UR003 the change itself makes no sense (end before start, in the past) → 400 invalid_request
--   UR004 never checked in, so not checked out                            → 409 reservation_not_ready

-- 1. Check-out time of a check-in.
alter table check_ins add column checked_out_at timestamptz;

-- 2. Staff codes: keys of kind `staff` for a room and a work window, with no reservation. Who it is
--    for (a member, optional) and who made it are on the row, so the code is attributable without
--    reading the audit trail. A staff code is `active` from creation: its window says when it opens.
create type staff_code_purpose as enum ('housekeeping', 'maintenance', 'inspection');
alter table access_keys alter column reservation_id drop not null;
alter table access_keys
  add column staff_label text check (length(staff_label) between 1 and 100),
  add column staff_purpose staff_code_purpose,
  add column staff_user_id uuid references users (id) on delete set null,
  add column issued_by_id text,
  add column issued_by_label text,
  -- The key this one was re-issued from (a lost or disclosed PIN, a revoked key replaced).
  add column replaces uuid;
alter table access_keys add constraint access_keys_replaces_fkey
  foreign key (tenant_id, replaces) references access_keys (tenant_id, id);
-- One successor per key: a re-issue retried or raced answers the same new key.
create unique index access_keys_one_successor on access_keys (tenant_id, replaces) where replaces is not null;
alter table access_keys add constraint access_keys_stay_or_staff check (
  (kind = 'staff' and reservation_id is null and staff_purpose is not null and staff_label is not null)
  or (kind <> 'staff' and staff_purpose is null and staff_label is null and staff_user_id is null)
);
alter table access_keys add constraint access_keys_reservation_unless_staff check (
  reservation_id is not null or kind in ('staff', 'backup')
);
-- "An active key belongs to a check-in" is about stays; a staff code has none.
do $$
declare v_name text;
begin
  select conname into strict v_name from pg_constraint
   where conrelid = 'access_keys'::regclass and contype = 'c'
     and pg_get_constraintdef(oid) ilike '%status <> ''active''%check_in_id IS NOT NULL%';
  execute format('alter table access_keys drop constraint %I', v_name);
end $$;
alter table access_keys add constraint access_keys_active_has_check_in
  check (status <> 'active' or check_in_id is not null or kind = 'staff');
create index access_keys_staff_by_room on access_keys (tenant_id, room_id, created_at desc) where kind = 'staff';

-- 3. A window change: the code on a door carries the old window until the job `vendor_rewindow_key`
--    takes it off and programs it again with the new one (a provider takes a window only with a code).
alter table key_lock_codes add column rewindow boolean not null default false;

-- 4. Inserting a live key of any kind: a fresh random PIN, drawn again while it is live on the room or
--    on one of its doors, its program job (and backup check) in the outbox. app_insert_key is the stay's case.
create function app_insert_key_of(p_tenant_id uuid, p_reservation_id uuid, p_check_in_id uuid, p_room_id uuid,
                                  p_status key_status, p_valid_from timestamptz, p_expires_at timestamptz,
                                  p_kind key_kind, p_staff jsonb, p_replaces uuid)
  returns access_keys
  language plpgsql volatile
  set search_path = pg_catalog, public
as $$
declare
  v_key access_keys;
  v_len integer;
  v_constraint text;
begin
  select pin_length into strict v_len from rooms where tenant_id = p_tenant_id and id = p_room_id;
  for attempt in 1..50 loop
    begin
      insert into access_keys (tenant_id, reservation_id, check_in_id, room_id, status, pin, valid_from, expires_at, kind,
                               staff_label, staff_purpose, staff_user_id, issued_by_id, issued_by_label, replaces)
      values (p_tenant_id, p_reservation_id, p_check_in_id, p_room_id, p_status, app_random_pin(v_len), p_valid_from, p_expires_at,
              p_kind, p_staff->>'label', (p_staff->>'purpose')::staff_code_purpose, (p_staff->>'userId')::uuid,
              p_staff->>'issuedById', p_staff->>'issuedByLabel', p_replaces)
      returning * into v_key;
      perform app_enqueue_job('vendor_program_key', jsonb_build_object('tenantId', p_tenant_id, 'keyId', v_key.id),
                              queue_name => 'key:' || v_key.id, max_attempts => 8);
      if p_kind <> 'staff' and exists (
           select 1 from room_locks rl join locks l on l.tenant_id = rl.tenant_id and l.id = rl.lock_id
            where rl.tenant_id = p_tenant_id and rl.room_id = p_room_id and l.supports_backup_codes) then
        perform app_enqueue_job('key_backup_check', jsonb_build_object('tenantId', p_tenant_id, 'keyId', v_key.id),
                                run_at => greatest(p_valid_from - interval '15 minutes', now() + interval '5 minutes'),
                                max_attempts => 3);
      end if;
      return v_key;
    exception when unique_violation then
      get stacked diagnostics v_constraint = constraint_name;
      if v_constraint not in ('access_keys_one_live_pin_per_room', 'key_lock_codes_one_live_pin_per_lock') then raise; end if;
    end;
  end loop;
  raise exception 'no free PIN on room %', p_room_id using errcode = 'UK003';
end $$;

create or replace function app_insert_key(p_tenant_id uuid, p_reservation_id uuid, p_check_in_id uuid, p_room_id uuid,
                                          p_status key_status, p_valid_from timestamptz, p_expires_at timestamptz)
  returns access_keys
  language sql volatile
  set search_path = pg_catalog, public
as $$
  select app_insert_key_of(p_tenant_id, p_reservation_id, p_check_in_id, p_room_id, p_status, p_valid_from, p_expires_at,
                           'guest', null, null)
$$;

-- 5. When a stay's key may open the door: a pre-issued key from the facility's key lead before the
--    start, but never while another live stay of the room is still running (its end caps the lead);
--    a checked-in stay's key from now or its start, whichever is first. Read after the reservation's
--    own row was written, so the exclusion constraint has already refused any overlap of the stay itself.
create function app_stay_key_window(p_tenant_id uuid, p_reservation_id uuid, p_status key_status,
                                    out valid_from timestamptz, out expires_at timestamptz)
  language sql stable
  set search_path = pg_catalog, public
as $$
  select case when p_status = 'active' then least(now(), r.starts_at)
              else greatest(r.starts_at - make_interval(mins => f.key_lead_minutes),
                            coalesce((select max(o.ends_at) from reservations o
                                       where o.tenant_id = r.tenant_id and o.room_id = r.room_id and o.id <> r.id
                                         and o.status in ('held', 'confirmed', 'checked_in')
                                         and o.ends_at <= r.starts_at), '-infinity'))
         end,
         r.ends_at
    from reservations r
    join rooms ro on ro.tenant_id = r.tenant_id and ro.id = r.room_id
    join facilities f on f.tenant_id = ro.tenant_id and f.id = ro.facility_id
   where r.tenant_id = p_tenant_id and r.id = p_reservation_id
$$;

-- A stay's new key, in the state its reservation calls for (checked in → active, else pre-issued),
-- with its window, audited with p_action. The caller holds the reservation's row lock.
create function app_issue_stay_key(p_tenant_id uuid, p_reservation_id uuid, p_replaces uuid, p_action text, p_reason text,
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
  select id into v_check_in from check_ins where tenant_id = p_tenant_id and reservation_id = p_reservation_id;
  v_status := case when v_res.status = 'checked_in' then 'active' else 'pre_issued' end;
  select * into v_window from app_stay_key_window(p_tenant_id, p_reservation_id, v_status);
  v_key := app_insert_key_of(p_tenant_id, p_reservation_id, case when v_status = 'active' then v_check_in end, v_res.room_id,
                             v_status, coalesce(p_valid_from, v_window.valid_from), coalesce(p_expires_at, v_window.expires_at),
                             'guest', null, p_replaces);
  perform app_audit(p_tenant_id, p_actor_type, p_actor_id, p_actor_label, p_action, 'access_key', v_key.id, v_key.room_id, p_reason,
                    jsonb_strip_nulls(jsonb_build_object('reservationId', p_reservation_id, 'checkInId', v_key.check_in_id,
                                                         'replaces', p_replaces)));
  return v_key;
end $$;

-- The reservation row, locked, or UN404; refuses a stay that cannot change any more (UR001).
create function app_lock_live_stay(p_tenant_id uuid, p_reservation_id uuid, p_change text) returns reservations
  language plpgsql volatile
  set search_path = pg_catalog, public
as $$
declare
  v_res reservations;
begin
  select * into v_res from reservations where tenant_id = p_tenant_id and id = p_reservation_id for update;
  if not found then
    raise exception 'reservation % not found', p_reservation_id using errcode = 'UN404';
  end if;
  if v_res.status in ('cancelled', 'checked_out') then
    raise exception 'A % stay cannot be %.', replace(v_res.status::text, '_', ' '), p_change
      using errcode = 'UR001', detail = format('from=%s to=%s', v_res.status, p_change);
  end if;
  return v_res;
end $$;

-- 6. Check-out: the stay ends now, its live keys are revoked (`checked_out`), audited once.
--    Again → the same reservation, nothing written; never checked in → UR004.
create function check_out_reservation(p_tenant_id uuid, p_reservation_id uuid,
                                      p_actor_type actor_type, p_actor_id text, p_actor_label text)
  returns reservations
  language plpgsql volatile
  set search_path = pg_catalog, public
as $$
declare
  v_res reservations;
  v_key uuid;
  v_revoked uuid[] := '{}';
  v_check_in uuid;
begin
  select * into v_res from reservations where tenant_id = p_tenant_id and id = p_reservation_id for update;
  if not found then
    raise exception 'reservation % not found', p_reservation_id using errcode = 'UN404';
  end if;
  if v_res.status = 'checked_out' then
    return v_res;
  end if;
  if v_res.status <> 'checked_in' then
    raise exception 'This stay was never checked in, so it cannot be checked out.'
      using errcode = 'UR004', detail = v_res.status::text;
  end if;
  update reservations set status = 'checked_out' where tenant_id = p_tenant_id and id = p_reservation_id returning * into v_res;
  update check_ins set checked_out_at = now() where tenant_id = p_tenant_id and reservation_id = p_reservation_id
  returning id into v_check_in;
  for v_key in select id from access_keys
    where tenant_id = p_tenant_id and reservation_id = p_reservation_id and status in ('pre_issued', 'active') and kind <> 'backup'
    order by created_at
  loop
    if (select id from app_end_key(p_tenant_id, v_key, 'revoked', 'checked_out', p_actor_type, p_actor_id, p_actor_label)) is not null then
      v_revoked := v_revoked || v_key;
    end if;
  end loop;
  perform app_audit(p_tenant_id, p_actor_type, p_actor_id, p_actor_label, 'checkout.completed', 'reservation', p_reservation_id,
                    v_res.room_id, null, jsonb_build_object('checkInId', v_check_in, 'revokedKeyIds', to_jsonb(v_revoked)));
  return v_res;
end $$;

-- 7. A room move: the stay goes to another room of the tenant (free for its dates, not archived),
--    the old door's code goes (`room_moved`) and a key in the same state comes for the new room with
--    a new PIN. Moving to the room it is in changes nothing (a retry answers the same).
create function move_reservation(p_tenant_id uuid, p_reservation_id uuid, p_room_id uuid, p_reason text,
                                 p_actor_type actor_type, p_actor_id text, p_actor_label text)
  returns reservations
  language plpgsql volatile
  set search_path = pg_catalog, public
as $$
declare
  v_res reservations;
  v_from rooms;
  v_to rooms;
  v_key access_keys;
  v_new access_keys;
  v_revoked uuid[] := '{}';
  v_issued uuid[] := '{}';
begin
  v_res := app_lock_live_stay(p_tenant_id, p_reservation_id, 'moved');
  if v_res.room_id = p_room_id then
    return v_res;
  end if;
  if v_res.ends_at <= now() then
    raise exception 'This stay is over; it cannot be moved.' using errcode = 'UR001',
      detail = format('from=%s to=moved', v_res.status);
  end if;
  select * into v_to from rooms where tenant_id = p_tenant_id and id = p_room_id;
  if not found then
    raise exception 'room % not found', p_room_id using errcode = 'UN404';
  end if;
  if v_to.archived_at is not null then
    raise exception 'Room % is archived and takes no stays.', v_to.label using errcode = 'UR002';
  end if;
  select * into strict v_from from rooms where tenant_id = p_tenant_id and id = v_res.room_id;
  -- The rooms' booking locks, in a fixed order (reserve_booking_group and early check-ins take them too).
  perform pg_advisory_xact_lock(hashtextextended(r::text, 2)) from unnest(array[v_from.id, v_to.id]) r order by r::text;
  -- A guest checked in early already holds the door from now: the new room must be free until the start too.
  -- (Nested: SQL does not promise to test `now() < starts_at` before building the range.)
  if v_res.status = 'checked_in' and now() < v_res.starts_at then
    if exists (
         select 1 from reservations o
          where o.tenant_id = p_tenant_id and o.room_id = p_room_id and o.id <> p_reservation_id
            and o.status in ('held', 'confirmed', 'checked_in')
            and tstzrange(o.starts_at, o.ends_at, '[)') && tstzrange(now(), v_res.starts_at, '[)')) then
      raise exception 'Room % is occupied before this stay starts.', v_to.label using errcode = 'UR002';
    end if;
  end if;
  -- The stay's own row first: the exclusion constraint refuses a taken room (23P01) before any key is made.
  update reservations set room_id = p_room_id, room_label_snapshot = v_to.label
   where tenant_id = p_tenant_id and id = p_reservation_id returning * into v_res;
  for v_key in select * from access_keys
    where tenant_id = p_tenant_id and reservation_id = p_reservation_id and status in ('pre_issued', 'active') and kind <> 'backup'
    order by created_at
  loop
    perform app_end_key(p_tenant_id, v_key.id, 'revoked', 'room_moved', p_actor_type, p_actor_id, p_actor_label);
    v_revoked := v_revoked || v_key.id;
    v_new := app_issue_stay_key(p_tenant_id, p_reservation_id, null,
                                case when v_key.status = 'active' then 'key.issued' else 'key.pre_issued' end,
                                'room_moved', p_actor_type, p_actor_id, p_actor_label);
    v_issued := v_issued || v_new.id;
  end loop;
  perform app_audit(p_tenant_id, p_actor_type, p_actor_id, p_actor_label, 'reservation.moved', 'reservation', p_reservation_id,
                    p_room_id, p_reason,
                    jsonb_build_object('fromRoomId', v_from.id, 'fromRoomLabel', v_from.label, 'toRoomId', v_to.id,
                                       'toRoomLabel', v_to.label, 'revokedKeyIds', to_jsonb(v_revoked),
                                       'issuedKeyIds', to_jsonb(v_issued)));
  return v_res;
end $$;

-- 8. New dates: the stay's window changes (the exclusion constraint refuses a clash), its live keys'
--    windows follow (each audited `key.window_changed`, each door re-programmed by the job
--    `vendor_rewindow_key`), the guest link lives a day past the new end. The same dates change nothing.
create function change_reservation_dates(p_tenant_id uuid, p_reservation_id uuid, p_starts_at timestamptz, p_ends_at timestamptz,
                                         p_actor_type actor_type, p_actor_id text, p_actor_label text)
  returns reservations
  language plpgsql volatile
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
    update access_keys set valid_from = v_from, expires_at = v_to
     where tenant_id = p_tenant_id and id = v_key.id;
    update key_lock_codes set rewindow = true, updated_at = now()
     where tenant_id = p_tenant_id and key_id = v_key.id and state in ('pending', 'setting', 'set');
    perform app_enqueue_job('vendor_rewindow_key', jsonb_build_object('tenantId', p_tenant_id, 'keyId', v_key.id),
                            queue_name => 'key:' || v_key.id, max_attempts => 8);
    perform app_audit(p_tenant_id, p_actor_type, p_actor_id, p_actor_label, 'key.window_changed', 'access_key', v_key.id,
                      v_key.room_id, null,
                      jsonb_build_object('reservationId', p_reservation_id,
                                         'from', jsonb_build_object('validFrom', v_key.valid_from, 'expiresAt', v_key.expires_at),
                                         'to', jsonb_build_object('validFrom', v_from, 'expiresAt', v_to)));
    v_changed := v_changed || v_key.id;
  end loop;
  perform app_audit(p_tenant_id, p_actor_type, p_actor_id, p_actor_label, 'reservation.changed', 'reservation', p_reservation_id,
                    v_res.room_id, null,
                    jsonb_build_object('from', jsonb_build_object('startsAt', v_old.starts_at, 'endsAt', v_old.ends_at),
                                       'to', jsonb_build_object('startsAt', v_starts, 'endsAt', v_ends),
                                       'changedKeyIds', to_jsonb(v_changed)));
  return v_res;
end $$;

-- 9. Re-issue: a new key with a different PIN in the same state and window; the old one revoked
--    (`reissued`). From an ended key of a stay that still runs and has no live key, a new key in the
--    state the stay calls for (a revocation is no dead end). A retry answers the same successor.
create function reissue_key(p_tenant_id uuid, p_key_id uuid, p_reason text,
                            p_actor_type actor_type, p_actor_id text, p_actor_label text)
  returns access_keys
  language plpgsql volatile
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
  if v_key.status in ('pre_issued', 'active') then
    perform app_end_key(p_tenant_id, v_key.id, 'revoked', 'reissued', p_actor_type, p_actor_id, p_actor_label);
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
  if v_res.status not in ('held', 'confirmed', 'checked_in') or v_res.ends_at <= now() then
    raise exception 'A % stay gets no new key.', replace(v_res.status::text, '_', ' ') using errcode = 'UR001',
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

-- A stay whose keys have all ended (or that never had one) gets a new key, from its latest ended key.
create function issue_new_stay_key(p_tenant_id uuid, p_reservation_id uuid, p_reason text,
                                   p_actor_type actor_type, p_actor_id text, p_actor_label text)
  returns access_keys
  language plpgsql volatile
  set search_path = pg_catalog, public
as $$
declare
  v_res reservations;
  v_last uuid;
  v_live access_keys;
begin
  v_res := app_lock_live_stay(p_tenant_id, p_reservation_id, 'given a new key');
  select * into v_live from access_keys
   where tenant_id = p_tenant_id and reservation_id = p_reservation_id and status in ('pre_issued', 'active') and kind <> 'backup';
  if found then
    return v_live;
  end if;
  select id into v_last from access_keys
   where tenant_id = p_tenant_id and reservation_id = p_reservation_id and kind = 'guest'
     and not exists (select 1 from access_keys s where s.tenant_id = p_tenant_id and s.replaces = access_keys.id)
   order by created_at desc limit 1;
  if v_last is not null then
    return reissue_key(p_tenant_id, v_last, p_reason, p_actor_type, p_actor_id, p_actor_label);
  end if;
  if v_res.ends_at <= now() then
    raise exception 'This stay is over; it gets no new key.' using errcode = 'UR001', detail = format('from=%s to=keyed', v_res.status);
  end if;
  return app_issue_stay_key(p_tenant_id, p_reservation_id, null, 'key.reissued', p_reason, p_actor_type, p_actor_id, p_actor_label);
end $$;

-- 10. A staff code for a room and a work window; `p_user_id` must be a member of the tenant.
create function create_staff_code(p_tenant_id uuid, p_room_id uuid, p_label text, p_purpose staff_code_purpose,
                                  p_starts_at timestamptz, p_ends_at timestamptz, p_user_id uuid,
                                  p_actor_type actor_type, p_actor_id text, p_actor_label text)
  returns access_keys
  language plpgsql volatile
  set search_path = pg_catalog, public
as $$
declare
  v_room rooms;
  v_key access_keys;
begin
  select * into v_room from rooms where tenant_id = p_tenant_id and id = p_room_id;
  if not found then
    raise exception 'room % not found', p_room_id using errcode = 'UN404';
  end if;
  if v_room.archived_at is not null then
    raise exception 'Room % is archived.', v_room.label using errcode = 'UR002';
  end if;
  if p_user_id is not null and not exists (select 1 from memberships where tenant_id = p_tenant_id and user_id = p_user_id) then
    raise exception 'user % not found', p_user_id using errcode = 'UN404';
  end if;
  if p_ends_at <= p_starts_at or p_ends_at <= now() then
    raise exception 'A staff code must end after it starts, and in the future.' using errcode = 'UR003', detail = 'endsAt';
  end if;
  v_key := app_insert_key_of(p_tenant_id, null, null, p_room_id, 'active', p_starts_at, p_ends_at, 'staff',
                             jsonb_build_object('label', p_label, 'purpose', p_purpose, 'userId', p_user_id,
                                                'issuedById', p_actor_id, 'issuedByLabel', p_actor_label), null);
  perform app_audit(p_tenant_id, p_actor_type, p_actor_id, p_actor_label, 'staff_code.created', 'access_key', v_key.id, p_room_id,
                    p_purpose::text, jsonb_strip_nulls(jsonb_build_object('label', p_label, 'purpose', p_purpose,
                                                                          'forUserId', p_user_id, 'validFrom', p_starts_at,
                                                                          'expiresAt', p_ends_at)));
  return v_key;
end $$;

grant execute on function app_insert_key_of(uuid, uuid, uuid, uuid, key_status, timestamptz, timestamptz, key_kind, jsonb, uuid),
  app_stay_key_window(uuid, uuid, key_status),
  app_issue_stay_key(uuid, uuid, uuid, text, text, actor_type, text, text, timestamptz, timestamptz),
  app_lock_live_stay(uuid, uuid, text),
  check_out_reservation(uuid, uuid, actor_type, text, text),
  move_reservation(uuid, uuid, uuid, text, actor_type, text, text),
  change_reservation_dates(uuid, uuid, timestamptz, timestamptz, actor_type, text, text),
  reissue_key(uuid, uuid, text, actor_type, text, text),
  issue_new_stay_key(uuid, uuid, text, actor_type, text, text),
  create_staff_code(uuid, uuid, text, staff_code_purpose, timestamptz, timestamptz, uuid, actor_type, text, text)
  to app_service;
