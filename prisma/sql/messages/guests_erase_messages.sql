-- Trigger: deleting a guest erases their address from every message (and drops what the local catcher kept of those
-- mails); a message not yet sent is not sent any more.
CREATE OR REPLACE FUNCTION public.guests_erase_messages()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  delete from caught_mail c using messages m, reservations r
   where c.tenant_id = old.tenant_id and m.tenant_id = c.tenant_id and m.id = c.message_id
     and r.tenant_id = m.tenant_id and r.id = m.reservation_id and r.guest_id = old.id;
  update messages m
     set to_address = null,
         status = case when m.status in ('queued', 'sending') then 'skipped'::message_status else m.status end,
         last_error = case when m.status in ('queued', 'sending') then 'guest_deleted' else m.last_error end,
         updated_at = now()
    from reservations r
   where m.tenant_id = old.tenant_id and r.tenant_id = m.tenant_id and r.id = m.reservation_id and r.guest_id = old.id;
  return old;
end $function$;
