-- Trigger: a password that changes moves the session generation: every session made before it is refused on its next
-- request (loadStaffIdentity compares the generation the session carries).
CREATE OR REPLACE FUNCTION public.users_password_changed()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  if new.password_hash is distinct from old.password_hash then
    new.session_generation := old.session_generation + 1;
    new.password_changed_at := now();
  else
    new.session_generation := old.session_generation;
  end if;
  return new;
end $function$;
