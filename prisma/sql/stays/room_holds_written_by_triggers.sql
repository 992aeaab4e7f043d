-- Trigger: only the triggers that keep room_holds write it: a statement of any role is refused.
CREATE OR REPLACE FUNCTION public.room_holds_written_by_triggers()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  if pg_trigger_depth() < 2 then
    raise exception 'room_holds is kept by the triggers on reservations and access_keys' using errcode = '42501';
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end $function$;
