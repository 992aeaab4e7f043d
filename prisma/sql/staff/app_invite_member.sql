-- Invites an address to a tenant: the same steps and the same answer whether or not it already has an account on the
-- install (one is made, without a password, when it has none).
CREATE OR REPLACE FUNCTION public.app_invite_member(p_tenant_id uuid, p_invitation_id uuid, p_token_hash bytea, p_email text, p_name text, p_role membership_role, p_actor_type actor_type, p_actor_id text, p_actor_label text)
 RETURNS TABLE(invitation_id uuid, expires_at timestamp with time zone)
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_email text := lower(btrim(p_email));
  v_user uuid;
  v_expires timestamptz := now() + interval '72 hours';
begin
  perform pg_advisory_xact_lock(hashtextextended('account:' || v_email, 0));
  select u.id into v_user from users u where u.email = v_email;
  if v_user is null then
    insert into users (email, name, password_hash) values (v_email, btrim(coalesce(p_name, '')), null)
    returning id into v_user;
  end if;
  if exists (select 1 from memberships m where m.tenant_id = p_tenant_id and m.user_id = v_user) then
    raise exception 'already a member of this tenant' using errcode = 'UU001';
  end if;
  update staff_invitations i set ended_at = now(), end_reason = 'superseded'
   where i.tenant_id = p_tenant_id and i.user_id = v_user and i.accepted_at is null and i.ended_at is null;
  insert into staff_invitations (id, tenant_id, user_id, email, name, role, token_hash, invited_by_type,
                                 invited_by_id, invited_by_label, expires_at)
  values (p_invitation_id, p_tenant_id, v_user, v_email, btrim(coalesce(p_name, '')), p_role, p_token_hash,
          p_actor_type, p_actor_id, p_actor_label, v_expires);
  perform app_audit(p_tenant_id, p_actor_type, p_actor_id, p_actor_label, 'member.invited', 'invitation',
                    p_invitation_id, null, null,
                    jsonb_build_object('email', v_email, 'name', btrim(coalesce(p_name, '')), 'role', p_role));
  perform app_enqueue_account_message(v_user, 'staff_invitation', p_invitation_id, null, v_email,
                                      app_message_locale(p_tenant_id, null));
  invitation_id := p_invitation_id;
  expires_at := v_expires;
  return next;
end $function$;
