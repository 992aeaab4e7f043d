-- A stay written into a room: the soft leads of other stays' pre-issued keys that reach into it move their start to
-- its end (they start after it: a lead is before its own stay's start).
CREATE OR REPLACE FUNCTION public.app_yield_key_leads(p_tenant_id uuid, p_room_id uuid, p_reservation_id uuid, p_during tstzrange)
 RETURNS void
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_key access_keys;
begin
  for v_key in
    select k.* from room_holds h
      join access_keys k on k.tenant_id = h.tenant_id and k.id = h.key_id
      join reservations o on o.tenant_id = k.tenant_id and o.id = k.reservation_id
     where h.tenant_id = p_tenant_id and h.room_id = p_room_id and h.reservation_id <> p_reservation_id
       and h.soft and h.during && p_during
       and o.starts_at >= upper(p_during) and k.expires_at > upper(p_during)
     order by k.id
       for update of k
  loop
    perform app_rewindow_key(p_tenant_id, v_key, upper(p_during), v_key.expires_at, 'room_booked_before',
                             'system', null, 'key lead');
  end loop;
end $function$;
