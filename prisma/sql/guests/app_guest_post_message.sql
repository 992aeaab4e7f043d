-- A guest's message to the desk from their link: stored for the desk's day, audited on the reservation's timeline.
CREATE OR REPLACE FUNCTION public.app_guest_post_message(p_tenant_id uuid, p_reservation_id uuid, p_body text)
 RETURNS guest_messages
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_res reservations;
  v_message guest_messages;
begin
  select * into v_res from reservations where tenant_id = p_tenant_id and id = p_reservation_id;
  if not found or v_res.guest_id is null or v_res.status in ('cancelled', 'checked_out') then
    raise exception 'reservation % not found', p_reservation_id using errcode = 'UN404';
  end if;
  insert into guest_messages (tenant_id, reservation_id, guest_id, kind, body, priority)
  values (p_tenant_id, p_reservation_id, v_res.guest_id, 'message', btrim(p_body), 'normal')
  returning * into v_message;
  -- The timeline says a message came and which; its words stay in guest_messages (erased with the guest).
  perform app_audit(p_tenant_id, 'guest', p_reservation_id::text, 'guest link', 'guest.message_sent', 'reservation',
                    p_reservation_id, v_res.room_id, null, jsonb_build_object('guestMessageId', v_message.id));
  return v_message;
end $function$;
