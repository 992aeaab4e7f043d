-- Records the refund of a payment that arrived after its hold was released: the group and its stays are marked
-- refunded once, audited, and an incident says what happened.
CREATE OR REPLACE FUNCTION public.app_late_payment_refunded(p_tenant_id uuid, p_group_id uuid, p_session_id text, p_refund_id text, p_amount_cents integer, p_currency text)
 RETURNS void
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_res reservations;
begin
  update booking_groups g set refunded_at = now()
   where g.tenant_id = p_tenant_id and g.id = p_group_id and g.refunded_at is null;
  if not found then
    return;
  end if;
  for v_res in
    update reservations r set refunded_at = now()
     where r.tenant_id = p_tenant_id and r.booking_group_id = p_group_id and r.refunded_at is null
    returning *
  loop
    perform app_audit(p_tenant_id, 'provider', 'stripe', 'Stripe', 'reservation.refunded', 'reservation', v_res.id,
                      v_res.room_id, 'payment_after_release',
                      jsonb_build_object('checkoutSessionId', p_session_id, 'refundId', p_refund_id,
                                         'amountCents', p_amount_cents, 'currency', p_currency));
  end loop;
  insert into incidents (tenant_id, condition_key, kind, severity, summary, detail)
  values (p_tenant_id, 'late_payment:' || p_session_id, 'late_payment', 'warning',
          'A guest paid after their hold had been released; the payment was refunded and nothing is booked.',
          jsonb_build_object('bookingGroupId', p_group_id, 'checkoutSessionId', p_session_id, 'refundId', p_refund_id,
                             'amountCents', p_amount_cents, 'currency', p_currency))
  on conflict do nothing;
end $function$;
