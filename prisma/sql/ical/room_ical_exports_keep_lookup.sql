-- Trigger: keeps ical_export_tokens (a feed URL's token hash → its room) in step with room_ical_exports.
CREATE OR REPLACE FUNCTION public.room_ical_exports_keep_lookup()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    delete from ical_export_tokens where token_hash = digest(old.token, 'sha256') and tenant_id = old.tenant_id;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into ical_export_tokens (token_hash, tenant_id, room_id) values (digest(new.token, 'sha256'), new.tenant_id, new.room_id);
  end if;
  return null;
end $function$;
