-- A reset link sets a new password once: unknown, used, ended or expired links are refused alike (UU002).
CREATE OR REPLACE FUNCTION public.app_reset_password(p_token_hash bytea, p_password_hash text)
 RETURNS TABLE(user_id uuid, email text)
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_reset password_resets;
begin
  select * into v_reset from password_resets r where r.token_hash = p_token_hash for update;
  if v_reset.id is null or v_reset.used_at is not null or v_reset.ended_at is not null or v_reset.expires_at <= now() then
    raise exception 'no open reset link' using errcode = 'UU002';
  end if;
  update password_resets r set used_at = now() where r.id = v_reset.id;
  update password_resets r set ended_at = now()
   where r.user_id = v_reset.user_id and r.id <> v_reset.id and r.used_at is null and r.ended_at is null;
  update users u set password_hash = p_password_hash, password_one_time = false, password_expires_at = null
   where u.id = v_reset.user_id;
  perform app_audit_password(v_reset.user_id, 'user.password_reset');
  return query select u.id, u.email from users u where u.id = v_reset.user_id;
end $function$;
