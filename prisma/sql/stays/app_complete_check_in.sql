-- The check-in hand-off as one SQL function, so the desk and the API complete a check-in in one round trip (issue
-- 16, part 3: the wrapper — role, settings, transaction — within 30 % of the function).
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
  if v_check_in is null then
    if v_stay.status not in ('held', 'confirmed') or v_stay.ends_at <= now() then
      raise exception 'A % reservation cannot be checked in.', v_stay.status
        using errcode = 'UC003', detail = v_stay.status::text;
    end if;
    if v_stay.guest_id is null then
      raise exception 'The guest of this reservation was deleted; it cannot be checked in.'
        using errcode = 'UC003', detail = v_stay.status::text;
    end if;
    v_opens := app_check_in_opens_at(p_tenant_id, p_reservation_id);
    v_early := v_opens > now();
    if v_early and not p_early then
      raise exception 'check-in opens at %', v_opens using errcode = 'UC001',
        detail = to_char(v_opens at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
    end if;
    insert into check_ins (tenant_id, reservation_id, completed_by_user_id, early)
    values (p_tenant_id, p_reservation_id, case when p_actor_type = 'user' then p_actor_id::uuid end, v_early)
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
