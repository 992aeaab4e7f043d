-- Trigger: deleting a guest clears the pseudonymous hold keys (mailbox, client address) of their booking requests.
CREATE OR REPLACE FUNCTION public.guests_erase_hold_keys()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  update booking_requests q set mailbox_key = null, hold_address_key = null
    from reservations r
   where q.tenant_id = old.tenant_id and r.tenant_id = q.tenant_id and r.id = q.reservation_id and r.guest_id = old.id
     and (q.mailbox_key is not null or q.hold_address_key is not null);
  return old;
end $function$;
