-- A manager sends an invitation of their tenant again: a new link and mail, 72 h from now; the old link is dead.
CREATE OR REPLACE FUNCTION public.app_resend_invitation(p_tenant_id uuid, p_invitation_id uuid, p_new_id uuid, p_token_hash bytea, p_actor_type actor_type, p_actor_id text, p_actor_label text)
 RETURNS TABLE(invitation_id uuid, email text, expires_at timestamp with time zone)
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_old staff_invitations;
  v_expires timestamptz := now() + interval '72 hours';
begin
  -- The row lock orders two resends of one invitation: the second finds it superseded.
  select * into v_old from staff_invitations i
   where i.tenant_id = p_tenant_id and i.id = p_invitation_id for update;
  if v_old.id is null then
    raise exception 'no such invitation' using errcode = 'UN404';
  end if;
  if v_old.accepted_at is not null or v_old.ended_at is not null then
    raise exception 'the invitation was answered, revoked or sent again' using errcode = 'UU006';
  end if;
  update staff_invitations i set ended_at = now(), end_reason = 'superseded' where i.id = v_old.id;
  insert into staff_invitations (id, tenant_id, user_id, email, name, role, token_hash, invited_by_type,
                                 invited_by_id, invited_by_label, expires_at)
  values (p_new_id, p_tenant_id, v_old.user_id, v_old.email, v_old.name, v_old.role, p_token_hash,
          p_actor_type, p_actor_id, p_actor_label, v_expires);
  perform app_audit(p_tenant_id, p_actor_type, p_actor_id, p_actor_label, 'member.invitation_resent', 'invitation',
                    p_new_id, null, null,
                    jsonb_build_object('email', v_old.email, 'role', v_old.role, 'previousInvitationId', v_old.id));
  perform app_enqueue_account_message(v_old.user_id, 'staff_invitation', p_new_id, null, v_old.email,
                                      app_message_locale(p_tenant_id, null));
  invitation_id := p_new_id;
  email := v_old.email;
  expires_at := v_expires;
  return next;
end $function$;
