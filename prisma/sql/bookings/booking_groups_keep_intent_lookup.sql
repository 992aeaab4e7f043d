-- Trigger: keeps stripe_payment_intents (the intent-to-booking lookup) in step with booking_groups.
CREATE OR REPLACE FUNCTION public.booking_groups_keep_intent_lookup()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  if tg_op in ('UPDATE', 'DELETE') and old.payment_intent_id is not null then
    delete from stripe_payment_intents
     where payment_intent_id = old.payment_intent_id and tenant_id = old.tenant_id and booking_group_id = old.id;
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.payment_intent_id is not null then
    insert into stripe_payment_intents (payment_intent_id, tenant_id, booking_group_id)
    values (new.payment_intent_id, new.tenant_id, new.id);
  end if;
  return null;
end $function$;
