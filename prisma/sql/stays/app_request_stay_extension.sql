-- A guest's extension of their live stay to p_ends_at, priced by the caller from the rate table: applied at once
-- (the stay's new end through change_reservation_dates, the amount owed) unless it is to be paid online first, when
-- it holds the room's added time for p_hold_minutes (the exclusion constraint decides: 23P01 when taken) and a job
-- releases it at the hold's end. The same request while its hold lasts answers the same extension. Holds are bounded
-- (issue 43.4): one live hold per stay (stay_extensions_one_held); another end asked for while it lasts replaces it
-- but keeps its end, so a stay's chain of holds lasts one hold's time; once a hold lapsed unpaid, a new one waits 15
-- minutes (UR007, detail the time it may); a hold adds at most 14 days (UR003).
CREATE OR REPLACE FUNCTION public.app_request_stay_extension(p_tenant_id uuid, p_reservation_id uuid, p_from_ends_at timestamp with time zone, p_ends_at timestamp with time zone, p_amount_cents integer, p_currency text, p_payment_mode payment_mode, p_hold_minutes integer)
 RETURNS stay_extensions
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_res reservations;
  v_ext stay_extensions;
  v_online boolean := p_payment_mode = 'online' and p_amount_cents > 0;
  v_hold_until timestamptz;
  v_lapsed_at timestamptz;
begin
  v_res := app_lock_live_stay(p_tenant_id, p_reservation_id, 'extended');
  if v_res.status not in ('confirmed', 'checked_in') or v_res.ends_at <= now() then
    raise exception 'Only a stay that has not ended can be extended.' using errcode = 'UR001',
      detail = format('from=%s to=extended', v_res.status);
  end if;
  if v_res.ends_at <> p_from_ends_at then
    raise exception 'The stay changed meanwhile; look at its end again.' using errcode = 'UR006';
  end if;
  if p_ends_at <= v_res.ends_at then
    raise exception 'The new end must be after the stay''s end.' using errcode = 'UR003', detail = 'endsAt';
  end if;
  perform pg_advisory_xact_lock(hashtextextended(v_res.room_id::text, 2));
  if v_online and p_ends_at - v_res.ends_at > interval '14 days' then
    raise exception 'An extension paid online adds at most 14 days at once.' using errcode = 'UR003', detail = 'endsAt';
  end if;
  select * into v_ext from stay_extensions e
   where e.tenant_id = p_tenant_id and e.reservation_id = p_reservation_id and e.status = 'held' for update;
  if found and v_ext.hold_expires_at > now() then
    if v_online and v_ext.ends_at = p_ends_at then
      return v_ext;
    end if;
    -- Another end asked for (or no payment needed any more): the earlier hold gives the room back first, and a new
    -- hold ends when it would have: replacing a hold never renews it.
    v_hold_until := v_ext.hold_expires_at;
    update stay_extensions e set status = 'released', updated_at = now()
     where e.tenant_id = p_tenant_id and e.id = v_ext.id;
    perform app_audit(p_tenant_id, 'guest', p_reservation_id::text, 'guest link', 'reservation.extension_released',
                      'reservation', p_reservation_id, v_res.room_id, 'replaced',
                      jsonb_build_object('extensionId', v_ext.id, 'endsAt', v_ext.ends_at));
  elsif found then
    -- Its hold is over and its release job has not run yet: it lapsed unpaid at its end; released here (the job then
    -- finds nothing to do).
    v_lapsed_at := v_ext.hold_expires_at;
    update stay_extensions e set status = 'released', updated_at = now()
     where e.tenant_id = p_tenant_id and e.id = v_ext.id;
    perform app_audit(p_tenant_id, 'system', null, 'Payment', 'reservation.extension_released', 'reservation',
                      p_reservation_id, v_res.room_id, 'payment_timeout', jsonb_build_object('extensionId', v_ext.id));
  else
    select case when e.status = 'released' then e.updated_at end into v_lapsed_at
      from stay_extensions e
     where e.tenant_id = p_tenant_id and e.reservation_id = p_reservation_id
     order by e.created_at desc, e.id desc
     limit 1;
  end if;
  if v_online and v_lapsed_at > now() - interval '15 minutes' then
    raise exception 'The stay''s last extension lapsed unpaid; a new one can be asked for from %.',
      v_lapsed_at + interval '15 minutes' using errcode = 'UR007',
      detail = to_char((v_lapsed_at + interval '15 minutes') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"');
  end if;
  insert into stay_extensions (tenant_id, reservation_id, room_id, from_ends_at, ends_at, amount_cents, currency,
                               payment_mode, status, hold_expires_at)
  values (p_tenant_id, p_reservation_id, v_res.room_id, v_res.ends_at, p_ends_at, p_amount_cents, p_currency,
          p_payment_mode, case when v_online then 'held' else 'applied' end::stay_extension_status,
          case when v_online then coalesce(v_hold_until, now() + make_interval(mins => p_hold_minutes)) end)
  returning * into v_ext;
  if v_online then
    perform app_enqueue_job('release_stay_extension',
                            jsonb_build_object('tenantId', p_tenant_id, 'extensionId', v_ext.id),
                            job_key => 'extension:' || v_ext.id, run_at => v_ext.hold_expires_at);
    perform app_audit(p_tenant_id, 'guest', p_reservation_id::text, 'guest link', 'reservation.extension_held',
                      'reservation', p_reservation_id, v_res.room_id, null,
                      jsonb_build_object('extensionId', v_ext.id, 'endsAt', p_ends_at, 'amountCents', p_amount_cents,
                                         'currency', p_currency, 'holdExpiresAt', v_ext.hold_expires_at));
  else
    perform change_reservation_dates(p_tenant_id, p_reservation_id, null, p_ends_at, 'guest', p_reservation_id::text,
                                     'guest link');
  end if;
  return v_ext;
end $function$;
