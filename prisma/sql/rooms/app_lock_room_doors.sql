-- Before a room's doors change: its live keys' stays (key share), the room's door lock, then those keys, in the order key writers take them.
CREATE OR REPLACE FUNCTION public.app_lock_room_doors(p_tenant_id uuid, p_room_id uuid)
 RETURNS void
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  -- A check-in or re-issue holding one of these stays finishes first; its key is then seen below.
  perform 1 from reservations r
   where r.tenant_id = p_tenant_id
     and r.id in (select k.reservation_id from access_keys k
                   where k.tenant_id = p_tenant_id and k.room_id = p_room_id and k.status in ('pre_issued', 'active'))
   order by r.id for key share of r;
  -- Exclusive against access_keys_add_doors (shared): a key inserted meanwhile either committed before (and is
  -- seen by the caller's next statements) or reads the room's doors after the caller committed.
  perform pg_advisory_xact_lock(hashtextextended('room-doors:' || p_room_id::text, 0));
  perform 1 from access_keys k
   where k.tenant_id = p_tenant_id and k.room_id = p_room_id and k.status in ('pre_issued', 'active')
   order by k.id for no key update;
end $function$;
