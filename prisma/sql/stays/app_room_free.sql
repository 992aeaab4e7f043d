-- A room free of other stays' hard holds over a span (a soft lead yields, so it does not count). The bound on
-- `ends_at` is what row-level security lets an index find (`&&` is not leakproof): the room's holds ending after
-- the span starts, not all its history.
CREATE OR REPLACE FUNCTION public.app_room_free(p_tenant_id uuid, p_room_id uuid, p_reservation_id uuid, p_during tstzrange)
 RETURNS boolean
 LANGUAGE sql
 STABLE
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  select isempty(p_during) or not exists (
    select 1 from room_holds h
     where h.tenant_id = p_tenant_id and h.room_id = p_room_id and h.reservation_id is distinct from p_reservation_id
       and h.ends_at > coalesce(lower(p_during), '-infinity') and not h.soft and h.during && p_during)
$function$;
