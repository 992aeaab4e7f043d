-- The invited account joins: only the account the invitation is for (UU003 otherwise), once.
CREATE OR REPLACE FUNCTION public.app_accept_invitation(p_token_hash bytea, p_user_id uuid)
 RETURNS TABLE(tenant_id uuid, role membership_role)
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_inv staff_invitations := app_open_invitation(p_token_hash);
  v_user users;
begin
  if v_inv.user_id <> p_user_id then
    raise exception 'the invitation is for another account' using errcode = 'UU003';
  end if;
  select * into strict v_user from users u where u.id = p_user_id;
  update staff_invitations i set accepted_at = now() where i.id = v_inv.id;
  insert into memberships (tenant_id, user_id, role) values (v_inv.tenant_id, p_user_id, v_inv.role)
  on conflict on constraint memberships_pkey do nothing;
  perform app_audit(v_inv.tenant_id, 'user', p_user_id::text, coalesce(nullif(v_user.name, ''), v_user.email),
                    'member.joined', 'user', p_user_id, null, null,
                    jsonb_build_object('email', v_user.email, 'role', v_inv.role, 'invitationId', v_inv.id));
  tenant_id := v_inv.tenant_id;
  role := v_inv.role;
  return next;
end $function$;
