-- A manager ends an open invitation of their tenant (`revoked`), audited `member.invitation_revoked`; false when it
-- was no longer open.
CREATE OR REPLACE FUNCTION public.app_revoke_invitation(p_tenant_id uuid, p_invitation_id uuid, p_actor_type actor_type, p_actor_id text, p_actor_label text)
 RETURNS boolean
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_email text;
begin
  update staff_invitations i set ended_at = now(), end_reason = 'revoked'
   where i.tenant_id = p_tenant_id and i.id = p_invitation_id and i.accepted_at is null and i.ended_at is null
  returning i.email into v_email;
  if v_email is null then
    if not exists (select 1 from staff_invitations i where i.tenant_id = p_tenant_id and i.id = p_invitation_id) then
      raise exception 'no such invitation' using errcode = 'UN404';
    end if;
    return false;
  end if;
  perform app_audit(p_tenant_id, p_actor_type, p_actor_id, p_actor_label, 'member.invitation_revoked',
                    'invitation', p_invitation_id, null, null, jsonb_build_object('email', v_email));
  return true;
end $function$;
