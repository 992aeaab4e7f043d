-- Trigger: door entries are append-only; the one update let through is the users FK's "set null" (an account removed).
CREATE OR REPLACE FUNCTION public.door_entries_guard_update()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog'
AS $function$
begin
  if new.user_id is null and old.user_id is not null
     and (to_jsonb(new) - 'user_id') = (to_jsonb(old) - 'user_id') then
    return new;
  end if;
  raise exception 'door_entries is append-only (% refused)', tg_op using errcode = 'UA001';
end $function$
