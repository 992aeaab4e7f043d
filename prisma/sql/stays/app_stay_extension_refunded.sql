-- Records the refund of an extension paid after its hold was released: marked refunded once, audited, and an
-- incident says what happened (the stay kept its end).
CREATE OR REPLACE FUNCTION public.app_stay_extension_refunded(p_tenant_id uuid, p_extension_id uuid, p_session_id text, p_refund_id text, p_amount_cents integer, p_currency text)
 RETURNS void
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_ext stay_extensions;
begin
  update stay_extensions e set status = 'refunded', refund_id = p_refund_id, updated_at = now()
   where e.tenant_id = p_tenant_id and e.id = p_extension_id and e.status = 'released'
  returning * into v_ext;
  if not found then
    return;
  end if;
  perform app_audit(p_tenant_id, 'provider', 'stripe', 'Stripe', 'reservation.refunded', 'reservation',
                    v_ext.reservation_id, v_ext.room_id, 'payment_after_release',
                    jsonb_build_object('checkoutSessionId', p_session_id, 'refundId', p_refund_id,
                                       'amountCents', p_amount_cents, 'currency', p_currency,
                                       'extensionId', p_extension_id));
  insert into incidents (tenant_id, condition_key, kind, severity, summary, detail)
  values (p_tenant_id, 'late_payment:' || p_session_id, 'late_payment', 'warning',
          'A guest paid for an extension after its hold had been released; the payment was refunded and the stay keeps its end.',
          jsonb_build_object('reservationId', v_ext.reservation_id, 'extensionId', p_extension_id,
                             'checkoutSessionId', p_session_id, 'refundId', p_refund_id,
                             'amountCents', p_amount_cents, 'currency', p_currency))
  on conflict do nothing;
end $function$;
