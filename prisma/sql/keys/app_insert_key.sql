-- Inserts a live guest key (app_insert_key_of with the guest kind).
CREATE OR REPLACE FUNCTION public.app_insert_key(p_tenant_id uuid, p_reservation_id uuid, p_check_in_id uuid, p_room_id uuid, p_status key_status, p_valid_from timestamp with time zone, p_expires_at timestamp with time zone)
 RETURNS access_keys
 LANGUAGE sql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  select app_insert_key_of(p_tenant_id, p_reservation_id, p_check_in_id, p_room_id, p_status, p_valid_from, p_expires_at,
                           'guest', null, null)
$function$;
