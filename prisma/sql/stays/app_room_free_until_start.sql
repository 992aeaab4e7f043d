-- An early check-in needs the room free of other stays' hard holds from now until the start.
CREATE OR REPLACE FUNCTION public.app_room_free_until_start(p_tenant_id uuid, p_reservation_id uuid)
 RETURNS boolean
 LANGUAGE sql
 STABLE
 SET search_path TO 'pg_catalog', 'public'
 SET plan_cache_mode TO 'force_custom_plan'
AS $function$
  -- A reservation this role cannot see has no overlap to report (true), as before.
  select coalesce((select now() >= r.starts_at or app_room_free(r.tenant_id, r.room_id, r.id, tstzrange(now(), r.starts_at, '[)'))
                     from reservations r
                    where r.tenant_id = p_tenant_id and r.id = p_reservation_id), true)
$function$;
