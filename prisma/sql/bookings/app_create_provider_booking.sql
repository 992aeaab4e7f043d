-- A provider's "booking created", decided and written under the booking's lock.
CREATE OR REPLACE FUNCTION public.app_create_provider_booking(p_tenant_id uuid, p_provider reservation_source, p_external_ref text, p_cancel_dedupe_key text, p_event_type text, p_event_time timestamp with time zone, p_group_id uuid, p_guest_id uuid, p_guest_name text, p_guest_email text, p_item jsonb, p_actor_id text, p_actor_label text)
 RETURNS TABLE(outcome text, reservation_id uuid)
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_rooms uuid[];
  v_room uuid;
  v_type uuid;
  -- The inbox's and the booking sources' provider is a webhook_provider: compared as the column is, with
  -- `provider <> 'stripe'` spelled out, so the partial unique index webhook_events_dedupe_per_tenant serves
  -- the later-cancel check in a generic plan too, and it never scans the tenant's history of events.
  v_provider webhook_provider := p_provider::text::webhook_provider;
begin
  perform app_lock_provider_booking(p_tenant_id, p_provider::text, p_external_ref);
  if exists (select 1 from webhook_events e
              where e.tenant_id = p_tenant_id and e.provider = v_provider and e.provider <> 'stripe'
                and e.dedupe_key = p_cancel_dedupe_key and e.provider_created_at >= p_event_time)
     or exists (select 1 from reservations r
                 where r.tenant_id = p_tenant_id and r.source = p_provider and r.external_ref = p_external_ref
                   and r.status = 'cancelled' and r.external_updated_at >= p_event_time) then
    outcome := 'created_after_cancel';
    return next;
    return;
  end if;
  -- The event type maps to one room, or to a room type: then its rooms are tried in order, the first the
  -- exclusion constraint lets in taking the booking (never a read-then-write).
  select s.room_type_id, case when s.room_id is not null then array[s.room_id] else
           (select array_agg(ro.id order by ro.label, ro.id) from rooms ro
             where ro.tenant_id = s.tenant_id and ro.room_type_id = s.room_type_id and ro.archived_at is null) end
    into v_type, v_rooms
    from booking_sources s
   where s.tenant_id = p_tenant_id and s.provider = v_provider and s.event_type = p_event_type;
  if coalesce(array_length(v_rooms, 1), 0) = 0 then
    outcome := 'unmapped_event_type';
    return next;
    return;
  end if;
  if exists (select 1 from reservations r
              where r.tenant_id = p_tenant_id and r.source = p_provider and r.external_ref = p_external_ref) then
    outcome := 'exists';
    return next;
    return;
  end if;
  if v_type is null then
    select h.reservation_id into reservation_id
      from app_hold_booking_group(p_tenant_id, p_group_id, p_guest_id, p_guest_name, p_guest_email, null, null, null, null,
                                  jsonb_build_array(p_item || jsonb_build_object('roomId', v_rooms[1])), p_provider, null,
                                  p_external_ref, p_event_time, true, 'provider', p_actor_id, p_actor_label) h;
    outcome := 'held';
    return next;
    return;
  end if;
  foreach v_room in array v_rooms loop
    begin
      select h.reservation_id into reservation_id
        from app_hold_booking_group(p_tenant_id, p_group_id, p_guest_id, p_guest_name, p_guest_email, null, null, null, null,
                                    jsonb_build_array(p_item || jsonb_build_object('roomId', v_room)), p_provider, null,
                                    p_external_ref, p_event_time, true, 'provider', p_actor_id, p_actor_label) h;
      outcome := 'held';
      return next;
      return;
    exception when sqlstate 'UB001' or exclusion_violation then
      reservation_id := null;
    end;
  end loop;
  raise exception 'no room of the type is free' using errcode = 'UB001', detail = to_jsonb(v_rooms)::text;
end $function$;
