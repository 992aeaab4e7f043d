-- A paid Checkout Session of a held extension, under the stay's lock: applied once (a payment row, `reservation.paid`,
-- the stay's new end through change_reservation_dates, audited with the guest as actor); 'already_applied' on a
-- repeat; 'released' when its hold was released or the stay changed meanwhile (the caller refunds); 'unknown' else.
CREATE OR REPLACE FUNCTION public.app_stay_extension_paid(p_tenant_id uuid, p_extension_id uuid, p_session_id text, p_payment_intent_id text, p_amount_cents integer, p_currency text)
 RETURNS text
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_ext stay_extensions;
  v_res reservations;
begin
  -- The stay's row first, then the extension's: the order app_request_stay_extension locks them in.
  select r.* into v_res from reservations r
    join stay_extensions e on e.tenant_id = r.tenant_id and e.reservation_id = r.id
   where e.tenant_id = p_tenant_id and e.id = p_extension_id
     for update of r;
  if not found then
    return 'unknown';
  end if;
  select * into v_ext from stay_extensions e where e.tenant_id = p_tenant_id and e.id = p_extension_id for update;
  if v_ext.checkout_session_id is distinct from p_session_id then
    return 'unknown';
  end if;
  if v_ext.status = 'applied' then
    return 'already_applied';
  end if;
  if v_ext.status <> 'held' then
    return 'released';
  end if;
  if v_res.status not in ('confirmed', 'checked_in') or v_res.ends_at <> v_ext.from_ends_at
     or v_res.room_id <> v_ext.room_id or v_ext.ends_at <= now() then
    update stay_extensions e set status = 'released', updated_at = now()
     where e.tenant_id = p_tenant_id and e.id = p_extension_id;
    perform app_audit(p_tenant_id, 'system', null, 'Payment', 'reservation.extension_released', 'reservation', v_res.id,
                      v_res.room_id, 'stay_changed', jsonb_build_object('extensionId', p_extension_id));
    return 'released';
  end if;
  update stay_extensions e set status = 'applied', paid_at = now(), payment_intent_id = p_payment_intent_id,
         updated_at = now()
   where e.tenant_id = p_tenant_id and e.id = p_extension_id;
  insert into payments (tenant_id, reservation_id, amount_cents, currency, method, external_ref)
  values (p_tenant_id, v_res.id, p_amount_cents, p_currency, 'stripe', p_session_id);
  perform app_audit(p_tenant_id, 'provider', 'stripe', 'Stripe', 'reservation.paid', 'reservation', v_res.id,
                    v_res.room_id, 'extension',
                    jsonb_build_object('checkoutSessionId', p_session_id, 'amountCents', p_amount_cents,
                                       'currency', p_currency, 'extensionId', p_extension_id));
  perform change_reservation_dates(p_tenant_id, v_res.id, null, v_ext.ends_at, 'guest', v_res.id::text, 'guest link');
  return 'applied';
end $function$;
