-- A sign-up's link is followed: in one transaction, once (the row is locked, then used), the tenant, its first facility,
-- the manager's account and the membership, audited `tenant.signed_up`. The account: a new one, or one made for an
-- invitation that has no password yet, takes the password typed on the link's page (`p_password_hash`: the link
-- proves the mailbox, so only its follower chooses it; none given → UU007); an account that signs in is the manager
-- only when `p_user_id` is it (UU003 otherwise) and keeps its password, whatever is passed. Unknown, used, ended or
-- expired links are refused alike (UU002), writing nothing.
CREATE OR REPLACE FUNCTION public.app_complete_sign_up(p_token_hash bytea, p_user_id uuid, p_password_hash text)
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
  if v_user.id is not null and v_user.password_hash is not null then
    if p_user_id is distinct from v_user.id then
      raise exception 'sign in as the account of this email first' using errcode = 'UU003';
    end if;
  elsif p_password_hash is null then
    raise exception 'choose the account''s password on the link''s page' using errcode = 'UU007';
  elsif v_user.id is null then
    insert into users (email, name, password_hash) values (v_row.email, v_row.name, p_password_hash)
    returning * into v_user;
    v_new := true;
  else
    -- An account made for an invitation, its password never chosen: the link proves the email, as the invitation's would.
    update users u set password_hash = p_password_hash, password_one_time = false, password_expires_at = null
     where u.id = v_user.id
    returning * into v_user;
    update password_resets r set ended_at = now() where r.user_id = v_user.id and r.used_at is null and r.ended_at is null;
  end if;
  insert into tenants (name) values (v_row.organisation_name) returning id into v_tenant;
  insert into facilities (tenant_id, name, time_zone) values (v_tenant, v_row.facility_name, v_row.time_zone)
  returning id into v_facility;
  insert into memberships (tenant_id, user_id, role) values (v_tenant, v_user.id, 'manager');
  update sign_ups s set used_at = now(), opened_tenant_id = v_tenant, opened_user_id = v_user.id where s.id = v_row.id;
  perform app_audit(v_tenant, 'user', v_user.id::text, coalesce(nullif(v_user.name, ''), v_user.email), 'tenant.signed_up',
                    'tenant', v_tenant, null, null,
                    jsonb_build_object('email', v_row.email, 'organisation', v_row.organisation_name,
                                       'facilityId', v_facility, 'facility', v_row.facility_name,
                                       'timeZone', v_row.time_zone, 'newAccount', v_new));
  return query select v_tenant, v_facility, v_user.id, v_user.email, v_user.name, v_user.session_generation, v_new;
end $function$;
grant execute on function app_complete_sign_up(bytea, uuid, text) to app_service;
