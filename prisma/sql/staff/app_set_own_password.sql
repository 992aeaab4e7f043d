-- A signed-in user sets a password they chose (the caller checked the current one, or the session is one a one-time
-- password opened): only from a live session (its generation, UU005 otherwise).
CREATE OR REPLACE FUNCTION public.app_set_own_password(p_user_id uuid, p_session_generation integer, p_password_hash text)
 RETURNS integer
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_generation integer;
begin
  update users u set password_hash = p_password_hash, password_one_time = false, password_expires_at = null
   where u.id = p_user_id and u.session_generation = p_session_generation
  returning u.session_generation into v_generation;
  if v_generation is null then
    raise exception 'the session has ended' using errcode = 'UU005';
  end if;
  update password_resets r set ended_at = now() where r.user_id = p_user_id and r.used_at is null and r.ended_at is null;
  perform app_audit_password(p_user_id, 'user.password_changed');
  return v_generation;
end $function$;
