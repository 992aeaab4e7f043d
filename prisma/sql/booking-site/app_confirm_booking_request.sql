-- A booking request's emailed code, checked under the request's lock: a wrong code counts (the fifth ends the
-- request), the right one holds the first room of the type the exclusion constraint lets in — held for its payment
-- (online) or confirmed — once; a repeat answers the same reservation. Unpaid holds are bounded (issue 43.4): the
-- confirming client address (`p_address_key`) and the request's mailbox each hold at most 2 live unpaid stays of the
-- facility (online `held`, or `confirmed` with nothing paid, until their end); one more → UB004, nothing held. Counted
-- under an advisory lock per key, taken in a fixed order, so concurrent confirms cannot both take the last place.
CREATE OR REPLACE FUNCTION public.app_confirm_booking_request(p_tenant_id uuid, p_request_id uuid, p_code_hash bytea, p_group_id uuid, p_guest_id uuid, p_link_id uuid, p_token_hash bytea, p_hold_minutes integer, p_address_key text)
 RETURNS TABLE(outcome text, reservation_id uuid, booking_group_id uuid, status reservation_status, hold_expires_at timestamp with time zone, checkout_url text)
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_req booking_requests;
  v_room uuid;
  v_status reservation_status;
  v_hold timestamptz;
  v_res uuid;
  v_plan text;
  v_lock bigint;
  v_holding integer;
begin
  select * into v_req from booking_requests r where r.tenant_id = p_tenant_id and r.id = p_request_id for update;
  if not found then
    raise exception 'booking request % not found', p_request_id using errcode = 'UN404';
  end if;
  if v_req.status = 'confirmed' then
    return query
      select 'confirmed'::text, r.id, g.id, r.status, g.hold_expires_at, g.checkout_url
        from reservations r join booking_groups g on g.tenant_id = r.tenant_id and g.id = r.booking_group_id
       where r.tenant_id = p_tenant_id and r.id = v_req.reservation_id;
    return;
  end if;
  if v_req.status = 'gone' or v_req.code_expires_at <= now() then
    update booking_requests r set status = 'gone', guest_name = null, guest_email = null, guest_phone = null
     where r.tenant_id = p_tenant_id and r.id = p_request_id;
    update messages m set to_address = null where m.tenant_id = p_tenant_id and m.booking_request_id = p_request_id;
    outcome := 'gone';
    return next;
    return;
  end if;
  if v_req.code_hash <> p_code_hash then
    update booking_requests r set wrong_codes = r.wrong_codes + 1,
           status = case when r.wrong_codes + 1 >= 5 then 'gone'::booking_request_status else r.status end,
           guest_name = case when r.wrong_codes + 1 >= 5 then null else r.guest_name end,
           guest_email = case when r.wrong_codes + 1 >= 5 then null else r.guest_email end,
           guest_phone = case when r.wrong_codes + 1 >= 5 then null else r.guest_phone end
     where r.tenant_id = p_tenant_id and r.id = p_request_id
    returning * into v_req;
    if v_req.status = 'gone' then
      update messages m set to_address = null where m.tenant_id = p_tenant_id and m.booking_request_id = p_request_id;
    end if;
    outcome := case when v_req.status = 'gone' then 'gone' else 'invalid_code' end;
    return next;
    return;
  end if;

  for v_lock in
    select distinct hashtextextended('holds:' || v_req.facility_id || ':' || k, 0)
      from unnest(array[v_req.mailbox_key, p_address_key]) k
     where k is not null
     order by 1
  loop
    perform pg_advisory_xact_lock(v_lock);
  end loop;
  select count(*) into v_holding
    from booking_requests q
    join reservations r on r.tenant_id = q.tenant_id and r.id = q.reservation_id
   where q.tenant_id = p_tenant_id and q.facility_id = v_req.facility_id and q.status = 'confirmed'
     and (q.mailbox_key = v_req.mailbox_key or q.hold_address_key = p_address_key)
     and r.ends_at > now()
     and (r.status = 'held' or (r.status = 'confirmed' and r.paid_at is null));
  if v_holding >= 2 then
    raise exception 'this address or mailbox already holds % unpaid stays here', v_holding using errcode = 'UB004',
      detail = v_holding::text;
  end if;

  v_status := case when v_req.payment_mode = 'online' then 'held' else 'confirmed' end;
  select t.name into v_plan from room_types t where t.tenant_id = p_tenant_id and t.id = v_req.room_type_id;
  for v_room in
    select ro.id from rooms ro
     where ro.tenant_id = p_tenant_id and ro.facility_id = v_req.facility_id and ro.room_type_id = v_req.room_type_id
       and ro.archived_at is null
     order by ro.label, ro.id
  loop
    begin
      select h.reservation_id into v_res
        from app_hold_booking_group(p_tenant_id, p_group_id, p_guest_id, v_req.guest_name, v_req.guest_email,
                                    v_req.guest_phone, null, v_req.amount_cents, v_req.currency,
                                    jsonb_build_array(jsonb_build_object(
                                      'roomId', v_room, 'startsAt', v_req.starts_at, 'endsAt', v_req.ends_at,
                                      'linkId', p_link_id, 'tokenHash', encode(p_token_hash, 'hex'), 'locale', v_req.locale)),
                                    'booking_site', v_plan, null, null, v_status = 'confirmed',
                                    'guest', null, 'Booking site', v_status) h;
      exit;
    exception when sqlstate 'UB001' or exclusion_violation then
      v_res := null;
    end;
  end loop;
  if v_res is null then
    outcome := 'room_unavailable';
    return next;
    return;
  end if;

  if v_status = 'held' then
    v_hold := now() + make_interval(mins => p_hold_minutes);
    update booking_groups g set hold_expires_at = v_hold where g.tenant_id = p_tenant_id and g.id = p_group_id;
    perform app_enqueue_job('release_booking_hold',
                            jsonb_build_object('tenantId', p_tenant_id, 'bookingGroupId', p_group_id),
                            job_key => 'hold:' || p_group_id, run_at => v_hold);
  end if;
  -- The guest's details now live in guests (erased with the guest); the request and its code mail keep none.
  update booking_requests r set status = 'confirmed', reservation_id = v_res, booking_group_id = p_group_id,
         guest_name = null, guest_email = null, guest_phone = null, hold_address_key = p_address_key
   where r.tenant_id = p_tenant_id and r.id = p_request_id;
  update messages m set to_address = null where m.tenant_id = p_tenant_id and m.booking_request_id = p_request_id;
  outcome := 'confirmed';
  reservation_id := v_res;
  booking_group_id := p_group_id;
  status := v_status;
  hold_expires_at := v_hold;
  checkout_url := null;
  return next;
end $function$;
