-- Trigger: a door that takes an offline code makes its key hard (it can no longer yield or be taken off).
CREATE OR REPLACE FUNCTION public.key_lock_codes_hold_room()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  update room_holds set soft = false where tenant_id = new.tenant_id and key_id = new.key_id and soft;
  return null;
end $function$;
