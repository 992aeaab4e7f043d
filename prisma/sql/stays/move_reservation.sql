-- A room move: the stay goes to another room of the tenant (free for its dates, not archived), the old door's code
-- goes (`room_moved`) and a key in the same state comes for the new room with a new PIN.
CREATE OR REPLACE FUNCTION public.move_reservation(p_tenant_id uuid, p_reservation_id uuid, p_room_id uuid, p_reason text, p_actor_type actor_type, p_actor_id text, p_actor_label text)
 RETURNS reservations
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
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
end $function$;
