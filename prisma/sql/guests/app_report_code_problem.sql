-- "My code does not work" from a guest link: one high-priority report per five minutes, an incident for managers.
CREATE OR REPLACE FUNCTION public.app_report_code_problem(p_tenant_id uuid, p_reservation_id uuid)
 RETURNS TABLE(message_id uuid, created boolean, backup_key_id uuid)
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_res reservations;
  v_message guest_messages;
begin
  select * into v_res from reservations r where r.tenant_id = p_tenant_id and r.id = p_reservation_id;
  if not found or v_res.guest_id is null or v_res.status in ('cancelled', 'checked_out') then
    raise exception 'reservation % not found', p_reservation_id using errcode = 'UN404';
  end if;
  -- Taps of one stay's button queue here: a tap within five minutes of the last report is that report.
  perform pg_advisory_xact_lock(hashtextextended('code_problem:' || p_tenant_id || ':' || p_reservation_id, 0));
  update guest_messages g set occurrences = g.occurrences + 1, updated_at = now()
   where g.tenant_id = p_tenant_id and g.reservation_id = p_reservation_id and g.kind = 'code_problem'
     and g.created_at > now() - interval '5 minutes'
  returning * into v_message;
  if found then
    return query select v_message.id, false, v_message.backup_key_id;
    return;
  end if;
  -- No report in the last five minutes, so none in this five-minute bucket either: the unique index on the bucket
  -- refuses a second report of the same minutes from any writer that would skip the lock.
  insert into guest_messages (tenant_id, reservation_id, guest_id, kind, priority, report_bucket)
  values (p_tenant_id, p_reservation_id, v_res.guest_id, 'code_problem', 'high',
          to_timestamp(floor(extract(epoch from now()) / 300) * 300))
  returning * into v_message;
  perform app_audit(p_tenant_id, 'guest', p_reservation_id::text, 'guest link', 'guest.code_problem', 'reservation',
                    p_reservation_id, v_res.room_id, null, jsonb_build_object('guestMessageId', v_message.id));
  -- Managers hear of it through the incident's own mail (incidents_enqueue_messages, decision 014); a stay that
  -- reports again later counts one more occurrence on its open incident.
  insert into incidents as i (tenant_id, condition_key, kind, severity, summary, detail)
  values (p_tenant_id, 'guest_code_problem:' || p_reservation_id, 'guest_code_problem', 'critical',
          format('Room %s: the guest says their code does not work', v_res.room_label_snapshot),
          jsonb_build_object('reservationId', p_reservation_id, 'roomId', v_res.room_id,
                             'guestMessageIds', jsonb_build_array(v_message.id)))
  on conflict (tenant_id, condition_key) where resolved_at is null do update set
    occurrences = i.occurrences + 1,
    updated_at = now(),
    detail = i.detail || jsonb_build_object('guestMessageIds',
               coalesce(i.detail->'guestMessageIds', '[]') || jsonb_build_array(v_message.id));
  return query select v_message.id, true, null::uuid;
end $function$;
