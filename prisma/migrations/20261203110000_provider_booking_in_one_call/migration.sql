-- A booking group's hold and a booking provider's "booking created" are each one SQL function, called
-- in one round trip (issue 16, part 3; decision 019).

-- 1. The hold of a booking group: its guest, the group, then reserve_booking_group. The desk's and the
--    API's bookings (createBookingGroup) and a provider's (app_create_provider_booking) hold through it.
create function app_hold_booking_group(
  p_tenant_id uuid, p_group_id uuid, p_guest_id uuid, p_guest_name text, p_guest_email text, p_guest_phone text,
  p_payment_intent_id text, p_amount_cents integer, p_currency text, p_items jsonb, p_source reservation_source,
  p_plan_name text, p_external_ref text, p_external_updated_at timestamptz, p_pre_issue boolean,
  p_actor_type actor_type, p_actor_id text, p_actor_label text)
  returns table (reservation_id uuid, room_id uuid)
  language plpgsql volatile
  set search_path = pg_catalog, public
as $$
begin
  insert into guests (tenant_id, id, name, email, phone)
  values (p_tenant_id, p_guest_id, p_guest_name, p_guest_email, p_guest_phone);
  insert into booking_groups (tenant_id, id, payment_intent_id, amount_cents, currency)
  values (p_tenant_id, p_group_id, p_payment_intent_id, p_amount_cents, p_currency);
  return query
    select h.reservation_id, h.room_id
      from reserve_booking_group(p_tenant_id, p_group_id, p_guest_id, p_items, p_source, p_plan_name, p_external_ref,
                                 p_external_updated_at, p_pre_issue, p_actor_type, p_actor_id, p_actor_label) h;
end $$;
revoke all on function app_hold_booking_group(uuid, uuid, uuid, text, text, text, text, integer, text, jsonb,
  reservation_source, text, text, timestamptz, boolean, actor_type, text, text) from public;
grant execute on function app_hold_booking_group(uuid, uuid, uuid, text, text, text, text, integer, text, jsonb,
  reservation_source, text, text, timestamptz, boolean, actor_type, text, text) to app_service;

-- 2. Everything that happens to one provider booking (tenant + provider + external ref) runs under one
--    transaction-scoped lock: a create's checks and its write, and a cancellation, one at a time, so a
--    cancel never lands between a create's "not cancelled" and its insert. The key is the text the
--    workers hashed before this function existed, so old and new workers exclude each other.
create function app_lock_provider_booking(p_tenant_id uuid, p_provider text, p_external_ref text) returns void
  language sql volatile
  set search_path = pg_catalog, public
as $$
  select pg_advisory_xact_lock(hashtextextended(p_tenant_id::text || ':' || p_provider || ':' || p_external_ref, 3));
$$;
revoke all on function app_lock_provider_booking(uuid, text, text) from public;
grant execute on function app_lock_provider_booking(uuid, text, text) to app_service;

-- 3. A provider's "booking created", decided and written under the booking's lock. Outcomes:
--    created_after_cancel  the provider cancelled this booking at or after the create's time (the cancel's
--                          delivery is in the inbox, or the reservation was cancelled by it): nothing written;
--    unmapped_event_type   no booking source (or more than one) maps the event type: nothing written (the
--                          caller opens the incident);
--    exists                the booking's reservation is there already (a retry or a replay): nothing written;
--    held                  the reservation is held with its pre-issued key; reservation_id says which.
--    A taken or archived room raises from reserve_booking_group (UB001), and nothing is written.
--    It reads webhook_events (the inbox, a coordinator table), so under Citus it runs on the coordinator
--    and every statement in it is a single-shard query of the tenant.
create function app_create_provider_booking(
  p_tenant_id uuid, p_provider reservation_source, p_external_ref text, p_cancel_dedupe_key text,
  p_event_type text, p_event_time timestamptz, p_group_id uuid, p_guest_id uuid, p_guest_name text,
  p_guest_email text, p_item jsonb, p_actor_id text, p_actor_label text)
  returns table (outcome text, reservation_id uuid)
  language plpgsql volatile
  set search_path = pg_catalog, public
as $$
declare
  v_rooms uuid[];
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
  select array_agg(s.room_id) into v_rooms
    from booking_sources s
   where s.tenant_id = p_tenant_id and s.provider = v_provider and s.event_type = p_event_type;
  if coalesce(array_length(v_rooms, 1), 0) <> 1 then
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
  select h.reservation_id into reservation_id
    from app_hold_booking_group(p_tenant_id, p_group_id, p_guest_id, p_guest_name, p_guest_email, null, null, null, null,
                                jsonb_build_array(p_item || jsonb_build_object('roomId', v_rooms[1])), p_provider, null,
                                p_external_ref, p_event_time, true, 'provider', p_actor_id, p_actor_label) h;
  outcome := 'held';
  return next;
end $$;
revoke all on function app_create_provider_booking(uuid, reservation_source, text, text, text, timestamptz, uuid, uuid,
  text, text, jsonb, text, text) from public;
grant execute on function app_create_provider_booking(uuid, reservation_source, text, text, text, timestamptz, uuid,
  uuid, text, text, jsonb, text, text) to app_service;
