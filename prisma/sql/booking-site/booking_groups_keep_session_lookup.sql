-- Trigger: keeps stripe_checkout_sessions (the Checkout Session → booking group lookup) in step with booking_groups.
CREATE OR REPLACE FUNCTION public.booking_groups_keep_session_lookup()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  if tg_op in ('UPDATE', 'DELETE') and old.checkout_session_id is not null then
    delete from stripe_checkout_sessions
     where checkout_session_id = old.checkout_session_id and tenant_id = old.tenant_id and booking_group_id = old.id;
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.checkout_session_id is not null then
    insert into stripe_checkout_sessions (checkout_session_id, tenant_id, booking_group_id)
    values (new.checkout_session_id, new.tenant_id, new.id);
  end if;
  return null;
end $function$;
