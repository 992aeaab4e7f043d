-- The check-in hand-off as one SQL function (the desk, the API and the guest's self check-in; issues 16 and 31).
CREATE OR REPLACE FUNCTION public.app_complete_check_in(p_tenant_id uuid, p_reservation_id uuid, p_early boolean, p_actor_type actor_type, p_actor_id text, p_actor_label text)
 RETURNS TABLE(check_in_id uuid, revoked_key_ids uuid[], key access_keys)
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_stay reservations;
  v_opens timestamptz;
  v_early boolean;
  v_check_in uuid;
  v_revoked uuid[];
  v_mode check_in_mode;
  v_self boolean := p_actor_type = 'guest';
begin
  -- The row lock serializes concurrent check-ins of one stay (and a guest's deletion).
  select * into v_stay from reservations r
   where r.tenant_id = p_tenant_id and r.id = p_reservation_id
     for update;
  if not found then
    raise exception 'reservation % not found', p_reservation_id using errcode = 'UN404';
  end if;
  select c.id into v_check_in from check_ins c
   where c.tenant_id = p_tenant_id and c.reservation_id = p_reservation_id
   order by c.created_at limit 1;
  -- A guest checks in only at a self check-in facility (the desk checks in everywhere).
  if v_self then
    select f.check_in_mode into v_mode
      from rooms ro join facilities f on f.tenant_id = ro.tenant_id and f.id = ro.facility_id
     where ro.tenant_id = p_tenant_id and ro.id = v_stay.room_id;
    if v_mode is distinct from 'self' then
      raise exception 'At this property the front desk checks guests in.' using errcode = 'UC004';
    end if;
  end if;
  if v_check_in is null then
    if v_stay.status not in ('held', 'confirmed') or v_stay.ends_at <= now() then
      raise exception 'A % reservation cannot be checked in.', v_stay.status
        using errcode = 'UC003', detail = v_stay.status::text;
    end if;
    if v_stay.guest_id is null then
      raise exception 'The guest of this reservation was deleted; it cannot be checked in.'
        using errcode = 'UC003', detail = v_stay.status::text;
    end if;
    if v_self then
      -- The guest's check-in opens self_check_in_opens_hours before the start; the key it issues still
      -- works no earlier than the early check-in allows (app_stay_key_window), so it is never `early`.
      v_opens := app_self_check_in_opens_at(p_tenant_id, p_reservation_id);
      if v_opens > now() then
        raise exception 'check-in opens at %', v_opens using errcode = 'UC001',
          detail = to_char(v_opens at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
      end if;
      if not coalesce(app_registration_complete(p_tenant_id, p_reservation_id), false) then
        raise exception 'The guest register of this stay is not complete.' using errcode = 'UC005';
      end if;
    end if;
    v_opens := app_check_in_opens_at(p_tenant_id, p_reservation_id);
    v_early := v_opens > now() and not v_self;
    if v_early and not p_early then
      raise exception 'check-in opens at %', v_opens using errcode = 'UC001',
        detail = to_char(v_opens at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
    end if;
    insert into check_ins (tenant_id, reservation_id, completed_by_user_id, early, self_check_in)
    values (p_tenant_id, p_reservation_id, case when p_actor_type = 'user' then p_actor_id::uuid end, v_early, v_self)
    returning id into v_check_in;
    update reservations set status = 'checked_in' where tenant_id = p_tenant_id and id = p_reservation_id;
    -- Every pre-issued key of the stay, revoked (an audit row and a removal job each).
    select coalesce(array_agg(k.id order by k.created_at) filter (where k.ended is not null), '{}') into v_revoked
      from (select k.id, k.created_at,
                   (app_end_key(k.tenant_id, k.id, 'revoked', 'superseded_by_checkin',
                                p_actor_type, p_actor_id, p_actor_label)).id as ended
              from access_keys k
             where k.tenant_id = p_tenant_id and k.reservation_id = p_reservation_id and k.status = 'pre_issued') k;
    perform app_audit(p_tenant_id, p_actor_type, p_actor_id, p_actor_label, 'checkin.completed',
                      'reservation', p_reservation_id, v_stay.room_id,
                      case when v_early then 'early_check_in' end,
                      jsonb_build_object('checkInId', v_check_in, 'revokedKeyIds', to_jsonb(v_revoked))
                        || case when v_self then jsonb_build_object('selfCheckIn', true) else '{}'::jsonb end
                        || case when v_early
                             then jsonb_build_object('early', true, 'opensAt',
                                    to_char(v_opens at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
                             else '{}'::jsonb end);
  end if;
  check_in_id := v_check_in;
  key := issue_checkin_key(p_tenant_id, v_check_in, p_actor_type, p_actor_id, p_actor_label);
  select coalesce(array_agg(k.id order by k.created_at), '{}') into revoked_key_ids
    from access_keys k
   where k.tenant_id = p_tenant_id and k.reservation_id = p_reservation_id
     and k.status = 'revoked' and k.revoked_reason = 'superseded_by_checkin';
  return next;
end $function$;
