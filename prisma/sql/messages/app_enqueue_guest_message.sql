-- Queues one guest mail of a reservation, to the guest's address, in the stay's language (none while held for payment).
CREATE OR REPLACE FUNCTION public.app_enqueue_guest_message(p_tenant_id uuid, p_reservation_id uuid, p_kind message_kind, p_occasion text)
 RETURNS SETOF messages
 LANGUAGE sql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  select m.* from reservations r
    join guests g on g.tenant_id = r.tenant_id and g.id = r.guest_id
    cross join lateral app_enqueue_message(r.tenant_id, r.id, null, null, p_kind, p_occasion, g.email,
                                           coalesce(r.locale, app_message_locale(r.tenant_id, r.room_id))) m
   where r.tenant_id = p_tenant_id and r.id = p_reservation_id
     and r.status not in ('held', 'cancelled', 'checked_out') and r.ends_at > now()
$function$;
