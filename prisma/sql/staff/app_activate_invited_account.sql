-- An account made for an invitation gets its first password from the invitation's link (the link proves the address)
-- and joins in the same transaction.
CREATE OR REPLACE FUNCTION public.app_activate_invited_account(p_token_hash bytea, p_password_hash text)
 RETURNS TABLE(user_id uuid, tenant_id uuid, session_generation integer)
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_inv staff_invitations := app_open_invitation(p_token_hash);
  v_generation integer;
begin
  update users u set password_hash = p_password_hash, password_one_time = false, password_expires_at = null
   where u.id = v_inv.user_id and u.password_hash is null
  returning u.session_generation into v_generation;
  if v_generation is null then
    raise exception 'the account has a password: sign in to accept' using errcode = 'UU004';
  end if;
  -- Any reset link asked for meanwhile is void: the password is chosen.
  update password_resets r set ended_at = now() where r.user_id = v_inv.user_id and r.used_at is null and r.ended_at is null;
  perform app_accept_invitation(p_token_hash, v_inv.user_id);
  user_id := v_inv.user_id;
  tenant_id := v_inv.tenant_id;
  session_generation := v_generation;
  return next;
end $function$;
