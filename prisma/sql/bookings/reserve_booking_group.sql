-- Booking: a room is taken where another stay holds it hard (its dates, a checked-in guest's key, an offline code),
-- reported for every room as before (UB001), holding nothing. A held booking (p_status 'held') waits for its payment.
CREATE OR REPLACE FUNCTION public.reserve_booking_group(p_tenant_id uuid, p_group_id uuid, p_guest_id uuid, p_items jsonb, p_source reservation_source, p_plan_name text, p_external_ref text, p_external_updated_at timestamp with time zone, p_pre_issue boolean, p_actor_type actor_type, p_actor_id text, p_actor_label text, p_status reservation_status DEFAULT 'confirmed'::reservation_status)
 RETURNS TABLE(reservation_id uuid, room_id uuid)
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_item jsonb;
  v_room_id uuid;
  v_conflicts jsonb;
  v_missing jsonb;
  v_guest_ref text;
  v_reservation_id uuid;
  v_starts timestamptz;
  v_ends timestamptz;
begin
  for v_room_id in select distinct (i->>'roomId')::uuid from jsonb_array_elements(p_items) i order by 1 loop
    perform pg_advisory_xact_lock(hashtextextended(v_room_id::text, 2));
  end loop;

  select coalesce(jsonb_agg(distinct i->>'roomId'), '[]') into v_missing
    from jsonb_array_elements(p_items) i
   where not exists (select 1 from rooms r where r.tenant_id = p_tenant_id and r.id = (i->>'roomId')::uuid);
  if jsonb_array_length(v_missing) > 0 then
    raise exception 'unknown rooms' using errcode = 'UB002', detail = v_missing::text;
  end if;

  select coalesce(jsonb_agg(distinct i->>'roomId'), '[]') into v_conflicts
    from jsonb_array_elements(p_items) with ordinality as a(i, n)
   where not app_room_free(p_tenant_id, (a.i->>'roomId')::uuid, null,
                           tstzrange((a.i->>'startsAt')::timestamptz, (a.i->>'endsAt')::timestamptz, '[)'))
      or exists (
           select 1 from jsonb_array_elements(p_items) with ordinality as b(j, m)
            where b.m <> a.n and b.j->>'roomId' = a.i->>'roomId'
              and tstzrange((b.j->>'startsAt')::timestamptz, (b.j->>'endsAt')::timestamptz, '[)')
               && tstzrange((a.i->>'startsAt')::timestamptz, (a.i->>'endsAt')::timestamptz, '[)'));
  if jsonb_array_length(v_conflicts) > 0 then
    raise exception 'rooms unavailable' using errcode = 'UB001', detail = v_conflicts::text;
  end if;

  v_guest_ref := 'guest_' || left(encode(digest(p_guest_id::text, 'sha256'), 'hex'), 12);
  for v_item in select * from jsonb_array_elements(p_items) loop
    v_starts := (v_item->>'startsAt')::timestamptz;
    v_ends := (v_item->>'endsAt')::timestamptz;
    insert into reservations (tenant_id, booking_group_id, room_id, guest_id, starts_at, ends_at, status, source,
                              external_ref, external_updated_at, room_label_snapshot, plan_name_snapshot, guest_ref_snapshot,
                              locale)
    select p_tenant_id, p_group_id, ro.id, p_guest_id, v_starts, v_ends, p_status, p_source,
           p_external_ref, p_external_updated_at, ro.label, p_plan_name, v_guest_ref, v_item->>'locale'
      from rooms ro where ro.tenant_id = p_tenant_id and ro.id = (v_item->>'roomId')::uuid
    returning id into v_reservation_id;
    insert into guest_links (tenant_id, id, reservation_id, token_hash, expires_at)
    values (p_tenant_id, (v_item->>'linkId')::uuid, v_reservation_id, decode(v_item->>'tokenHash', 'hex'), v_ends + interval '1 day');
    perform app_audit(p_tenant_id, p_actor_type, p_actor_id, p_actor_label, 'reservation.created', 'reservation', v_reservation_id,
                      (v_item->>'roomId')::uuid, null, jsonb_build_object('bookingGroupId', p_group_id, 'source', p_source));
    if p_pre_issue and v_ends > now() then
      perform pre_issue_key(p_tenant_id, v_reservation_id, p_actor_type, p_actor_id, p_actor_label);
    end if;
    reservation_id := v_reservation_id;
    room_id := (v_item->>'roomId')::uuid;
    return next;
  end loop;
end $function$;
