-- The hold of a booking group: its guest, the group, then reserve_booking_group.
CREATE OR REPLACE FUNCTION public.app_hold_booking_group(p_tenant_id uuid, p_group_id uuid, p_guest_id uuid, p_guest_name text, p_guest_email text, p_guest_phone text, p_payment_intent_id text, p_amount_cents integer, p_currency text, p_items jsonb, p_source reservation_source, p_plan_name text, p_external_ref text, p_external_updated_at timestamp with time zone, p_pre_issue boolean, p_actor_type actor_type, p_actor_id text, p_actor_label text, p_status reservation_status DEFAULT 'confirmed'::reservation_status)
 RETURNS TABLE(reservation_id uuid, room_id uuid)
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  insert into guests (tenant_id, id, name, email, phone)
  values (p_tenant_id, p_guest_id, p_guest_name, p_guest_email, p_guest_phone);
  insert into booking_groups (tenant_id, id, payment_intent_id, amount_cents, currency)
  values (p_tenant_id, p_group_id, p_payment_intent_id, p_amount_cents, p_currency);
  return query
    select h.reservation_id, h.room_id
      from reserve_booking_group(p_tenant_id, p_group_id, p_guest_id, p_items, p_source, p_plan_name, p_external_ref,
                                 p_external_updated_at, p_pre_issue, p_actor_type, p_actor_id, p_actor_label, p_status) h;
end $function$;
