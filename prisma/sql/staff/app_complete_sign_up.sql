-- A sign-up's link is followed: in one transaction, once (the row is locked, then used), the tenant, its first facility,
-- the manager's account (or the email's own account, only when `p_user_id` is it: UU003 otherwise) and the membership,
-- audited `tenant.signed_up`. Unknown, used, ended or expired links are refused alike (UU002), writing nothing.
CREATE OR REPLACE FUNCTION public.app_complete_sign_up(p_token_hash bytea, p_user_id uuid)
 RETURNS TABLE(tenant_id uuid, facility_id uuid, user_id uuid, email text, name text, session_generation integer, new_account boolean)
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_row sign_ups;
  v_user users;
  v_new boolean := false;
  v_tenant uuid;
  v_facility uuid;
begin
  select * into v_row from sign_ups s where s.token_hash = p_token_hash for update;
  if v_row.id is null or v_row.used_at is not null or v_row.ended_at is not null or v_row.expires_at <= now() then
    raise exception 'no open sign-up link' using errcode = 'UU002';
  end if;
  perform pg_advisory_xact_lock(hashtextextended('account:' || v_row.email, 0));
  select * into v_user from users u where u.email = v_row.email;
  if v_user.id is null then
    if v_row.password_hash is null then
      -- The account the email had when it was asked is gone: there is no password to open a new one with.
      raise exception 'no open sign-up link' using errcode = 'UU002';
    end if;
    insert into users (email, name, password_hash) values (v_row.email, v_row.name, v_row.password_hash)
    returning * into v_user;
    v_new := true;
  elsif v_user.password_hash is null and v_row.password_hash is not null then
    -- An account made for an invitation, its password never chosen: the link proves the email, as the invitation's would.
    update users u set password_hash = v_row.password_hash, password_one_time = false, password_expires_at = null
     where u.id = v_user.id
    returning * into v_user;
    update password_resets r set ended_at = now() where r.user_id = v_user.id and r.used_at is null and r.ended_at is null;
  elsif p_user_id is distinct from v_user.id then
    raise exception 'sign in as the account of this email first' using errcode = 'UU003';
  end if;
  insert into tenants (name) values (v_row.organisation_name) returning id into v_tenant;
  insert into facilities (tenant_id, name, time_zone) values (v_tenant, v_row.facility_name, v_row.time_zone)
  returning id into v_facility;
  insert into memberships (tenant_id, user_id, role) values (v_tenant, v_user.id, 'manager');
  update sign_ups s set used_at = now(), password_hash = null, opened_tenant_id = v_tenant, opened_user_id = v_user.id
   where s.id = v_row.id;
  perform app_audit(v_tenant, 'user', v_user.id::text, coalesce(nullif(v_user.name, ''), v_user.email), 'tenant.signed_up',
                    'tenant', v_tenant, null, null,
                    jsonb_build_object('email', v_row.email, 'organisation', v_row.organisation_name,
                                       'facilityId', v_facility, 'facility', v_row.facility_name,
                                       'timeZone', v_row.time_zone, 'newAccount', v_new));
  return query select v_tenant, v_facility, v_user.id, v_user.email, v_user.name, v_user.session_generation, v_new;
end $function$;
grant execute on function app_complete_sign_up(bytea, uuid) to app_service;
