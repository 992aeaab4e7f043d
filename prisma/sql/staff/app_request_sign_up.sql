-- A sign-up is asked for: its row (24 h; an earlier open sign-up of the email ends) and the mail with its link, the same
-- for every email. It carries no password (issue 43.1): whoever asks is not yet known to own the mailbox, so the account's
-- password is chosen on the link's page, by the person who followed it (app_complete_sign_up). Returns whether the
-- email had an account that signs in (for tests and logs, never for the answer).
CREATE OR REPLACE FUNCTION public.app_request_sign_up(p_sign_up_id uuid, p_token_hash bytea, p_email text, p_name text, p_organisation_name text, p_facility_name text, p_time_zone text, p_locale text)
 RETURNS boolean
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_email text := lower(btrim(p_email));
  v_user users;
  v_locale text := case when p_locale = 'ja' then 'ja' else 'en' end;
begin
  perform pg_advisory_xact_lock(hashtextextended('account:' || v_email, 0));
  select * into v_user from users u where u.email = v_email;
  update sign_ups s set ended_at = now() where s.email = v_email and s.used_at is null and s.ended_at is null;
  insert into sign_ups (id, token_hash, email, name, organisation_name, facility_name, time_zone, locale, expires_at)
  values (p_sign_up_id, p_token_hash, v_email, btrim(coalesce(p_name, '')), btrim(p_organisation_name),
          btrim(p_facility_name), p_time_zone, v_locale, now() + interval '24 hours');
  perform app_enqueue_account_message(v_user.id, 'sign_up', null, null, v_email, v_locale, p_sign_up_id);
  return v_user.password_hash is not null;
end $function$;
grant execute on function app_request_sign_up(uuid, bytea, text, text, text, text, text, text) to app_service;
