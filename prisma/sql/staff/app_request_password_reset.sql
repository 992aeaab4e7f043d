-- A reset link is asked for: for an address with an account, a new link (1 h; earlier open links of the account end)
-- and its mail; for any other address nothing at all.
CREATE OR REPLACE FUNCTION public.app_request_password_reset(p_email text, p_reset_id uuid, p_token_hash bytea, p_locale text)
 RETURNS boolean
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_user users;
begin
  select * into v_user from users u where u.email = lower(btrim(p_email));
  if v_user.id is null then
    return false;
  end if;
  update password_resets r set ended_at = now() where r.user_id = v_user.id and r.used_at is null and r.ended_at is null;
  insert into password_resets (id, user_id, token_hash, expires_at) values (p_reset_id, v_user.id, p_token_hash, now() + interval '1 hour');
  perform app_enqueue_account_message(v_user.id, 'password_reset', null, p_reset_id, v_user.email, p_locale);
  return true;
end $function$;
