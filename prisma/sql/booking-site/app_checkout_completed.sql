-- A paid Checkout Session, under the group's lock: its held stays become confirmed and paid once (a payment row, a
-- pre-issued key, `reservation.paid`, the key link mail); 'already_paid' on a repeat; 'released' when the hold had
-- already been released (the caller refunds); 'unknown' for no such group.
CREATE OR REPLACE FUNCTION public.app_checkout_completed(p_tenant_id uuid, p_group_id uuid, p_session_id text, p_payment_intent_id text, p_amount_cents integer, p_currency text)
 RETURNS text
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_group booking_groups;
  v_res reservations;
  v_first boolean := true;
begin
  select * into v_group from booking_groups g where g.tenant_id = p_tenant_id and g.id = p_group_id for update;
  if not found then
    return 'unknown';
  end if;
  if not exists (select 1 from reservations r
                  where r.tenant_id = p_tenant_id and r.booking_group_id = p_group_id and r.status = 'held') then
    if exists (select 1 from reservations r
                where r.tenant_id = p_tenant_id and r.booking_group_id = p_group_id and r.paid_at is not null) then
      return 'already_paid';
    end if;
    return 'released';
  end if;
  update booking_groups g set hold_expires_at = null,
         payment_intent_id = coalesce(g.payment_intent_id, p_payment_intent_id)
   where g.tenant_id = p_tenant_id and g.id = p_group_id;
  for v_res in
    update reservations r set status = 'confirmed', paid_at = now()
     where r.tenant_id = p_tenant_id and r.booking_group_id = p_group_id and r.status = 'held'
    returning *
  loop
    if v_first then
      insert into payments (tenant_id, reservation_id, amount_cents, currency, method, external_ref)
      values (p_tenant_id, v_res.id, p_amount_cents, p_currency, 'stripe', p_session_id);
      v_first := false;
    end if;
    perform app_audit(p_tenant_id, 'provider', 'stripe', 'Stripe', 'reservation.paid', 'reservation', v_res.id,
                      v_res.room_id, null,
                      jsonb_build_object('checkoutSessionId', p_session_id, 'amountCents', p_amount_cents, 'currency', p_currency));
    if v_res.ends_at > now() then
      perform pre_issue_key(p_tenant_id, v_res.id, 'provider', 'stripe', 'Stripe');
    end if;
    perform app_enqueue_guest_message(p_tenant_id, v_res.id, 'key_link', 'booking');
  end loop;
  return 'confirmed';
end $function$;
