-- Trigger: an ended key is a record, not a key.
CREATE OR REPLACE FUNCTION public.access_keys_guard_ended()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  if old.status in ('revoked', 'expired') then
    raise exception 'an ended key (%) is a record: it cannot change', old.status
      using errcode = 'UK001', detail = format('from=%s to=%s', old.status, new.status);
  end if;
  return new;
end $function$;
