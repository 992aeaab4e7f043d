-- Queues one account mail and its `send_account_message` job (six attempts, as guest mail), in the person's own
-- language when they chose one (users.locale), else p_locale.
CREATE OR REPLACE FUNCTION public.app_enqueue_account_message(p_user_id uuid, p_kind account_message_kind, p_invitation_id uuid, p_reset_id uuid, p_to text, p_locale text, p_sign_up_id uuid DEFAULT NULL::uuid)
 RETURNS uuid
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_id uuid;
begin
  insert into account_messages (user_id, kind, invitation_id, reset_id, sign_up_id, to_address, locale)
  values (p_user_id, p_kind, p_invitation_id, p_reset_id, p_sign_up_id, p_to,
          case when coalesce((select u.locale from users u where u.id = p_user_id), p_locale) = 'ja' then 'ja' else 'en' end)
  returning id into v_id;
  perform app_enqueue_job('send_account_message', jsonb_build_object('messageId', v_id),
                          job_key => 'account-message:' || v_id, max_attempts => 6);
  return v_id;
end $function$;
grant execute on function app_enqueue_account_message(uuid, account_message_kind, uuid, uuid, text, text, uuid) to app_service;
