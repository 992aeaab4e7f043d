-- A stay's new key (move, re-issue): the window asked for (a re-issue keeps its key's), never before what the window
-- function allows.
CREATE OR REPLACE FUNCTION public.app_issue_stay_key(p_tenant_id uuid, p_reservation_id uuid, p_replaces uuid, p_action text, p_reason text, p_actor_type actor_type, p_actor_id text, p_actor_label text, p_valid_from timestamp with time zone DEFAULT NULL::timestamp with time zone, p_expires_at timestamp with time zone DEFAULT NULL::timestamp with time zone)
 RETURNS access_keys
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
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
end $function$;
