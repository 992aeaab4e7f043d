-- Trigger: an archived room's live codes end with it (its stays to come were refused before it was archived).
CREATE OR REPLACE FUNCTION public.rooms_end_staff_codes()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_key uuid;
begin
  for v_key in select id from access_keys
    where tenant_id = new.tenant_id and room_id = new.id and kind = 'staff' and status in ('pre_issued', 'active')
    order by created_at, id
  loop
    perform app_end_key(new.tenant_id, v_key, 'revoked', 'room_archived', 'system', null, 'room archived');
  end loop;
  return null;
end $function$;
