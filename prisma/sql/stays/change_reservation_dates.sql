-- New dates: the keys follow through app_rewindow_key — except an offline code, which its lock keeps as it was
-- issued: a window inside its own stays (the door stays held until its end, and the record says so); a window it
-- cannot cover ends it (`dates_changed`, still valid on the lock until its end) and a new key comes for the new
-- window.
CREATE OR REPLACE FUNCTION public.change_reservation_dates(p_tenant_id uuid, p_reservation_id uuid, p_starts_at timestamp with time zone, p_ends_at timestamp with time zone, p_actor_type actor_type, p_actor_id text, p_actor_label text)
 RETURNS reservations
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
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
end $function$;
