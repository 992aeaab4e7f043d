-- The invited account declines: the invitation ends (`declined`), audited `member.invitation_declined`.
CREATE OR REPLACE FUNCTION public.app_decline_invitation(p_token_hash bytea, p_user_id uuid)
 RETURNS void
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_inv staff_invitations := app_open_invitation(p_token_hash);
begin
  if v_inv.user_id <> p_user_id then
    raise exception 'the invitation is for another account' using errcode = 'UU003';
  end if;
  update staff_invitations i set ended_at = now(), end_reason = 'declined' where i.id = v_inv.id;
  perform app_audit(v_inv.tenant_id, 'user', p_user_id::text, v_inv.email, 'member.invitation_declined',
                    'invitation', v_inv.id, null, null, jsonb_build_object('email', v_inv.email));
end $function$;
