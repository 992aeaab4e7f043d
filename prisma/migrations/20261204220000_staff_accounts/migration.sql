-- Issue 28, item 6: accounts. Adding an email that already had an account to a second tenant joined
-- it silently (and a one-time password another tenant's manager had seen opened the new tenant);
-- one-time passwords never expired; nobody could change or reset a password; a password change
-- ended no session. Now:
--   - a member joins a tenant only by accepting an invitation (72 h, single use, revocable) that was
--     mailed to their address; the manager's answer is the same whether or not the address already
--     has an account on the install, and nothing the tenant can read says which;
--   - a password someone else chose (the one-time passwords managers were shown before this
--     migration) must be replaced at the next sign-in and is refused 72 h on;
--   - every user can change their password and reset it by a mailed link (1 h, single use);
--   - changing or resetting a password moves the account's session generation, which every request
--     checks (lib/auth/staff.ts): every other session of the account ends.
-- Tokens (invitations, resets) are derived from the row's id with the server's secret and only their
-- sha256 is stored (decision 003's scheme); the mails carrying them are account mail, filed under no
-- tenant (account_messages), so no tenant's manager ever reads another person's link.

-- Users -------------------------------------------------------------------------------------------

-- No password yet: an account made for an invitation, until its owner chooses one from the link.
alter table users alter column password_hash drop not null;
alter table users
  add column password_one_time boolean not null default false,
  add column password_expires_at timestamptz,
  add column password_changed_at timestamptz,
  add column session_generation integer not null default 0,
  add constraint users_one_time_password_expires check (not password_one_time or password_expires_at is not null),
  -- One plain address, as for guests: a staff mail goes to exactly this person.
  add constraint users_email_one_address
    check (email ~ '^[^[:space:][:cntrl:],;<>"()@\\]+@[^[:space:][:cntrl:],;<>"()@\\]+$') not valid;

-- A password that changes moves the session generation: every session made before it is refused on
-- its next request (loadStaffIdentity compares the generation the session carries). The generation
-- moves with the password only, whoever writes the row.
create function users_password_changed() returns trigger
  language plpgsql
  set search_path = pg_catalog, public
as $$
begin
  if new.password_hash is distinct from old.password_hash then
    new.session_generation := old.session_generation + 1;
    new.password_changed_at := now();
  else
    new.session_generation := old.session_generation;
  end if;
  return new;
end $$;
create trigger users_password_changed before update on users
  for each row execute function users_password_changed();

-- The one-time passwords managers were shown until now (member.created for a new account, by a
-- staff member): to be replaced at the next sign-in, and refused 72 h from now.
update users u
   set password_one_time = true,
       password_expires_at = greatest(u.created_at, now()) + interval '72 hours'
 where u.password_hash is not null
   and exists (select 1 from audit_events a
                where a.action = 'member.created' and a.subject_type = 'user' and a.subject_id = u.id
                  and a.actor_type = 'user' and a.metadata ->> 'newAccount' = 'true');

-- Invitations -------------------------------------------------------------------------------------

create table staff_invitations (
  id uuid primary key,
  tenant_id uuid not null references tenants (id) on delete cascade,
  -- The account it is for: the address's account, or one made for it (no password yet).
  user_id uuid not null references users (id) on delete cascade,
  -- What the manager typed (the account's own name is never shown to the inviting tenant).
  email text not null,
  name text not null default '' check (length(name) <= 200),
  role membership_role not null,
  token_hash bytea not null unique check (length(token_hash) = 32),
  invited_by_type actor_type not null,
  invited_by_id text,
  invited_by_label text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  accepted_at timestamptz,
  ended_at timestamptz,
  end_reason text check (end_reason in ('revoked', 'declined', 'superseded')),
  check (expires_at > created_at and expires_at <= created_at + interval '72 hours'),
  check (accepted_at is null or ended_at is null),
  check ((ended_at is null) = (end_reason is null))
);
-- One open invitation per tenant and account: inviting again supersedes the earlier one.
create unique index staff_invitations_one_open on staff_invitations (tenant_id, user_id)
  where accepted_at is null and ended_at is null;
create index staff_invitations_by_tenant on staff_invitations (tenant_id, created_at desc);
create index staff_invitations_by_user on staff_invitations (user_id) where accepted_at is null and ended_at is null;

alter table staff_invitations enable row level security;
alter table staff_invitations force row level security;
create policy service_all on staff_invitations to app_service
  using (app_current_tenant() is null or tenant_id = app_current_tenant())
  with check (app_current_tenant() is null or tenant_id = app_current_tenant());
grant select, insert, update on staff_invitations to app_service;

-- What sign-in needs of an account, in one read: its password hash — none once a one-time password
-- is past its end, so an expired one is refused like a wrong one — whether it must be replaced, its
-- session generation, and whether the account may enter at all (an active membership, or an open
-- invitation to accept).
create function app_sign_in_account(p_email text)
  returns table (id uuid, email text, name text, password_hash text, password_one_time boolean,
                 session_generation integer, may_enter boolean)
  language sql stable
  set search_path = pg_catalog, public
as $$
  select u.id, u.email, u.name,
         case when u.password_one_time and u.password_expires_at <= now() then null else u.password_hash end,
         u.password_one_time, u.session_generation,
         exists (select 1 from memberships m where m.user_id = u.id and m.deactivated_at is null)
           or exists (select 1 from staff_invitations i
                       where i.user_id = u.id and i.accepted_at is null and i.ended_at is null and i.expires_at > now())
    from users u where u.email = lower(btrim(p_email))
$$;

-- Password resets -----------------------------------------------------------------------------------

create table password_resets (
  id uuid primary key,
  user_id uuid not null references users (id) on delete cascade,
  token_hash bytea not null unique check (length(token_hash) = 32),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz,
  -- A newer link for the account, or its password changed otherwise: this one no longer works.
  ended_at timestamptz,
  check (expires_at > created_at and expires_at <= created_at + interval '1 hour'),
  check (used_at is null or ended_at is null)
);
create index password_resets_open on password_resets (user_id) where used_at is null and ended_at is null;
grant select, insert, update on password_resets to app_service;

-- Account mail ------------------------------------------------------------------------------------
-- Staff mail that belongs to a person, not to a tenant (an invitation's link, a reset link): an
-- outbox of its own, sent by the worker like `messages` (claimed before SMTP, retried, then failed),
-- and caught by the local mail catcher into a mailbox no tenant can read (the CLI's account-mail).

create type account_message_kind as enum ('staff_invitation', 'password_reset');

create table account_messages (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  kind account_message_kind not null,
  invitation_id uuid references staff_invitations (id) on delete cascade,
  reset_id uuid references password_resets (id) on delete cascade,
  to_address text not null,
  locale text not null default 'en' check (locale in ('en', 'ja')),
  status message_status not null default 'queued',
  attempts integer not null default 0,
  last_error text,
  claimed_at timestamptz,
  sent_at timestamptz,
  provider_message_id text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((kind = 'staff_invitation') = (invitation_id is not null)),
  check ((kind = 'password_reset') = (reset_id is not null))
);
create index account_messages_by_user on account_messages (user_id, created_at desc);
grant select, insert, update on account_messages to app_service;

create table caught_account_mail (
  id uuid primary key default gen_random_uuid(),
  message_id uuid not null references account_messages (id) on delete cascade,
  mail_from text not null default '',
  rcpt_to text not null default '',
  subject text not null default '',
  text_body text not null default '',
  html_body text not null default '',
  size_bytes integer not null default 0,
  received_at timestamptz not null default now()
);
create index caught_account_mail_by_time on caught_account_mail (received_at desc);
grant select, insert on caught_account_mail to app_service;

-- Queues one account mail and its `send_account_message` job (six attempts, as guest mail).
create function app_enqueue_account_message(p_user_id uuid, p_kind account_message_kind, p_invitation_id uuid,
                                            p_reset_id uuid, p_to text, p_locale text)
  returns uuid
  language plpgsql volatile
  set search_path = pg_catalog, public
as $$
declare
  v_id uuid;
begin
  insert into account_messages (user_id, kind, invitation_id, reset_id, to_address, locale)
  values (p_user_id, p_kind, p_invitation_id, p_reset_id, p_to, case when p_locale = 'ja' then 'ja' else 'en' end)
  returning id into v_id;
  perform app_enqueue_job('send_account_message', jsonb_build_object('messageId', v_id),
                          job_key => 'account-message:' || v_id, max_attempts => 6);
  return v_id;
end $$;

-- Invites an address to a tenant: the same steps and the same answer whether or not it already has
-- an account on the install (one is made, without a password, when it has none). An address that is
-- already a member of this tenant is refused (UU001: the manager sees their own members anyway). An
-- open invitation of the same tenant and account is superseded. Audited `member.invited` with what
-- the manager typed only. Serialised per address, so two tenants inviting one new address at once
-- make one account.
create function app_invite_member(p_tenant_id uuid, p_invitation_id uuid, p_token_hash bytea, p_email text,
                                  p_name text, p_role membership_role, p_actor_type actor_type, p_actor_id text,
                                  p_actor_label text)
  returns table (invitation_id uuid, expires_at timestamptz)
  language plpgsql volatile
  set search_path = pg_catalog, public
as $$
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
end $$;

-- The open invitation a token names, locked; none (UU002) when it is unknown, used, ended or past its
-- end — one refusal for all of them.
create function app_open_invitation(p_token_hash bytea)
  returns staff_invitations
  language plpgsql volatile
  set search_path = pg_catalog, public
as $$
declare
  v_row staff_invitations;
begin
  select * into v_row from staff_invitations i where i.token_hash = p_token_hash for update;
  if v_row.id is null or v_row.accepted_at is not null or v_row.ended_at is not null or v_row.expires_at <= now() then
    raise exception 'no open invitation' using errcode = 'UU002';
  end if;
  return v_row;
end $$;

-- The invited account joins: only the account the invitation is for (UU003 otherwise), once. The
-- membership is made here and nowhere else for an existing account. Audited `member.joined`.
create function app_accept_invitation(p_token_hash bytea, p_user_id uuid)
  returns table (tenant_id uuid, role membership_role)
  language plpgsql volatile
  set search_path = pg_catalog, public
as $$
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
end $$;

-- The invited account declines: the invitation ends (`declined`), audited `member.invitation_declined`.
create function app_decline_invitation(p_token_hash bytea, p_user_id uuid)
  returns void
  language plpgsql volatile
  set search_path = pg_catalog, public
as $$
declare
  v_inv staff_invitations := app_open_invitation(p_token_hash);
begin
  if v_inv.user_id <> p_user_id then
    raise exception 'the invitation is for another account' using errcode = 'UU003';
  end if;
  update staff_invitations i set ended_at = now(), end_reason = 'declined' where i.id = v_inv.id;
  perform app_audit(v_inv.tenant_id, 'user', p_user_id::text, v_inv.email, 'member.invitation_declined',
                    'invitation', v_inv.id, null, null, jsonb_build_object('email', v_inv.email));
end $$;

-- An account made for an invitation gets its first password from the invitation's link (the link
-- proves the address) and joins in the same transaction. An account that has a password already
-- signs in to accept instead (UU004).
create function app_activate_invited_account(p_token_hash bytea, p_password_hash text)
  returns table (user_id uuid, tenant_id uuid, session_generation integer)
  language plpgsql volatile
  set search_path = pg_catalog, public
as $$
declare
  v_inv staff_invitations := app_open_invitation(p_token_hash);
  v_generation integer;
begin
  update users u set password_hash = p_password_hash, password_one_time = false, password_expires_at = null
   where u.id = v_inv.user_id and u.password_hash is null
  returning u.session_generation into v_generation;
  if v_generation is null then
    raise exception 'the account has a password: sign in to accept' using errcode = 'UU004';
  end if;
  -- Any reset link asked for meanwhile is void: the password is chosen.
  update password_resets r set ended_at = now() where r.user_id = v_inv.user_id and r.used_at is null and r.ended_at is null;
  perform app_accept_invitation(p_token_hash, v_inv.user_id);
  user_id := v_inv.user_id;
  tenant_id := v_inv.tenant_id;
  session_generation := v_generation;
  return next;
end $$;

-- A manager ends an open invitation of their tenant (`revoked`), audited `member.invitation_revoked`;
-- false when it was no longer open.
create function app_revoke_invitation(p_tenant_id uuid, p_invitation_id uuid, p_actor_type actor_type,
                                      p_actor_id text, p_actor_label text)
  returns boolean
  language plpgsql volatile
  set search_path = pg_catalog, public
as $$
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
end $$;

-- Passwords ---------------------------------------------------------------------------------------

-- Audits a password change in every tenant the account belongs to (each operator sees it).
create function app_audit_password(p_user_id uuid, p_action text)
  returns void
  language sql volatile
  set search_path = pg_catalog, public
as $$
  select app_audit(m.tenant_id, 'user', u.id::text, coalesce(nullif(u.name, ''), u.email), p_action, 'user', u.id,
                   null, null, '{}'::jsonb)
    from memberships m join users u on u.id = m.user_id
   where m.user_id = p_user_id
$$;

-- A signed-in user sets a password they chose (the caller checked the current one, or the session is
-- one a one-time password opened): only from a live session (its generation, UU005 otherwise).
-- Ends every other session. A first password replacing a one-time one also clears that flag. Returns
-- the new generation (the caller's own session is re-issued with it).
create function app_set_own_password(p_user_id uuid, p_session_generation integer, p_password_hash text)
  returns integer
  language plpgsql volatile
  set search_path = pg_catalog, public
as $$
declare
  v_generation integer;
begin
  update users u set password_hash = p_password_hash, password_one_time = false, password_expires_at = null
   where u.id = p_user_id and u.session_generation = p_session_generation
  returning u.session_generation into v_generation;
  if v_generation is null then
    raise exception 'the session has ended' using errcode = 'UU005';
  end if;
  update password_resets r set ended_at = now() where r.user_id = p_user_id and r.used_at is null and r.ended_at is null;
  perform app_audit_password(p_user_id, 'user.password_changed');
  return v_generation;
end $$;

-- A reset link is asked for: for an address with an account, a new link (1 h; earlier open links of
-- the account end) and its mail; for any other address nothing at all. The caller answers the same
-- either way. Returns whether a link was made (for tests and logs, never for the answer).
create function app_request_password_reset(p_email text, p_reset_id uuid, p_token_hash bytea, p_locale text)
  returns boolean
  language plpgsql volatile
  set search_path = pg_catalog, public
as $$
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
end $$;

-- A reset link sets a new password once: unknown, used, ended or expired links are refused alike
-- (UU002). Every session of the account ends; the link is used in the same transaction.
create function app_reset_password(p_token_hash bytea, p_password_hash text)
  returns table (user_id uuid, email text)
  language plpgsql volatile
  set search_path = pg_catalog, public
as $$
declare
  v_reset password_resets;
begin
  select * into v_reset from password_resets r where r.token_hash = p_token_hash for update;
  if v_reset.id is null or v_reset.used_at is not null or v_reset.ended_at is not null or v_reset.expires_at <= now() then
    raise exception 'no open reset link' using errcode = 'UU002';
  end if;
  update password_resets r set used_at = now() where r.id = v_reset.id;
  update password_resets r set ended_at = now()
   where r.user_id = v_reset.user_id and r.id <> v_reset.id and r.used_at is null and r.ended_at is null;
  update users u set password_hash = p_password_hash, password_one_time = false, password_expires_at = null
   where u.id = v_reset.user_id;
  perform app_audit_password(v_reset.user_id, 'user.password_reset');
  return query select u.id, u.email from users u where u.id = v_reset.user_id;
end $$;

grant execute on function app_sign_in_account(text), app_enqueue_account_message(uuid, account_message_kind, uuid, uuid, text, text),
  app_invite_member(uuid, uuid, bytea, text, text, membership_role, actor_type, text, text),
  app_open_invitation(bytea), app_accept_invitation(bytea, uuid), app_decline_invitation(bytea, uuid),
  app_activate_invited_account(bytea, text), app_revoke_invitation(uuid, uuid, actor_type, text, text),
  app_audit_password(uuid, text), app_set_own_password(uuid, integer, text),
  app_request_password_reset(text, uuid, bytea, text), app_reset_password(bytea, text)
  to app_service;
