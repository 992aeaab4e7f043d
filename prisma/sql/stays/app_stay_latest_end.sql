-- The latest a stay could end on its room: where another stay's hard hold (its dates, a live key, an offline code, a
-- held extension) next begins after the stay's end; null when nothing follows.
CREATE OR REPLACE FUNCTION public.app_stay_latest_end(p_tenant_id uuid, p_reservation_id uuid)
 RETURNS timestamp with time zone
 LANGUAGE sql
 STABLE
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  select greatest(r.ends_at, min(lower(h.during)))
    from reservations r
    join room_holds h on h.tenant_id = r.tenant_id and h.room_id = r.room_id and h.reservation_id <> r.id
                     and not h.soft and h.ends_at > r.ends_at
   where r.tenant_id = p_tenant_id and r.id = p_reservation_id
   group by r.ends_at
$function$;
