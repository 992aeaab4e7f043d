-- Issue 32, item 1: sign-up. Anyone may ask to open an organisation (a tenant), its first facility and
-- its manager account at /sign-up; nothing of it exists until the email is proven by the link mailed to
-- it (24 h, single use). The request is a `sign_ups` row holding what was typed and only the scrypt
-- hash of the chosen password (none when the email already had an account: its owner signs in with it
-- to open the organisation, and no second account is made). The link's token is derived from the
-- row's id with the server's secret and only its sha256 is stored (decision 003's scheme, as for
-- invitations and reset links). Following the link consumes the row exactly once (app_complete_sign_up,
-- prisma/sql/staff/app_complete_sign_up.sql) in the transaction that makes the tenant, the facility,
-- the account and the membership. The mail is account mail (account_messages), filed under no tenant.

create table sign_ups (
  id uuid primary key,
  token_hash bytea not null unique check (length(token_hash) = 32),
  email text not null check (email = lower(btrim(email)) and length(email) <= 320),
  name text not null default '' check (length(name) <= 200),
  organisation_name text not null check (length(btrim(organisation_name)) between 1 and 200),
  facility_name text not null check (length(btrim(facility_name)) between 1 and 200),
  time_zone text not null check (length(time_zone) between 1 and 100),
  -- The chosen password's hash, for a new account; null when the email had an account when asked (its
  -- owner signs in instead), and cleared once the link is used.
  password_hash text,
  locale text not null default 'en' check (locale in ('en', 'ja')),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz,
  -- A newer sign-up asked for the same email: this link no longer works.
  ended_at timestamptz,
  -- What the link made (kept for the record; a tenant deleted later leaves the row). Not `tenant_id`: the
  -- row is no tenant's (it exists before its tenant does).
  opened_tenant_id uuid references tenants (id) on delete set null,
  opened_user_id uuid references users (id) on delete set null,
  check (expires_at > created_at and expires_at <= created_at + interval '24 hours'),
  check (used_at is null or ended_at is null),
  check (used_at is null or password_hash is null)
);
create index sign_ups_open on sign_ups (email) where used_at is null and ended_at is null;
grant select, insert, update on sign_ups to app_service;

-- Its mail is account mail; a sign-up for a new email has no account yet to file it under.
alter type account_message_kind add value if not exists 'sign_up';
alter table account_messages
  alter column user_id drop not null,
  add column sign_up_id uuid references sign_ups (id) on delete cascade,
  -- (kind::text: the new enum value cannot be named in the transaction that adds it.)
  add constraint account_messages_sign_up_link check ((kind::text = 'sign_up') = (sign_up_id is not null)),
  add constraint account_messages_user_unless_sign_up check (user_id is not null or kind::text = 'sign_up');
create index account_messages_by_address on account_messages (to_address, created_at desc);

-- The account-mail outbox learns a sign-up's link: prisma/sql/messages/app_enqueue_account_message.sql
-- defines it again with `p_sign_up_id` (defaulting to null, so every existing caller stays as it is).
drop function app_enqueue_account_message(uuid, account_message_kind, uuid, uuid, text, text);

-- The first-run checklist ticks "payments" once a facility's payment is a choice someone made: the default
-- `none` is indistinguishable from "not looked at yet", so saving the facility's payment option records when.
alter table facilities add column payment_chosen_at timestamptz;
update facilities set payment_chosen_at = created_at where payment_mode <> 'none';
