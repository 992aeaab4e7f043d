-- Issue 15: guest messages (the link by email exactly once per booking and per stay change) and
-- managers told by email when an incident opens or is raised. A message is a row of an outbox,
-- written by a trigger in the transaction that made it necessary, with its `send_message` job;
-- (tenant, reservation, kind, occasion) is unique, so a retried, duplicated or replayed delivery
-- finds the row there and adds nothing. The worker sends it (lib/messages/send-message.ts).

create type message_kind as enum ('key_link', 'stay_changed', 'incident_opened', 'incident_raised');
-- queued → sending (claimed by a worker, SMTP in progress) → sent | queued (retry) | failed (last
-- attempt); skipped: nothing to send any more (the stay was cancelled or ended, the guest deleted).
create type message_status as enum ('queued', 'sending', 'sent', 'failed', 'skipped');

create table messages (
  tenant_id uuid not null references tenants (id) on delete cascade,
  id uuid not null default gen_random_uuid(),
  -- Null for a manager's alert.
  reservation_id uuid,
  incident_id uuid references incidents (id) on delete set null,
  -- The manager an alert is for (their address is copied into to_address).
  recipient_user_id uuid references users (id) on delete set null,
  kind message_kind not null,
  -- Why it exists, once: 'booking', 'change:<xid>', 'resend:<uuid>', 'incident:<id>:level:<n>:<user>'.
  occasion text not null check (length(occasion) between 1 and 200),
  channel text not null default 'email' check (channel = 'email'),
  -- Personal data: erased (null) when the guest is deleted.
  to_address text,
  locale text not null default 'en' check (locale in ('en', 'ja')),
  status message_status not null default 'queued',
  attempts integer not null default 0,
  last_error text,
  claimed_at timestamptz,
  sent_at timestamptz,
  provider_message_id text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (tenant_id, id),
  foreign key (tenant_id, reservation_id) references reservations (tenant_id, id)
);
-- Manager alerts have no reservation: NULLS NOT DISTINCT keeps them unique all the same.
create unique index messages_once_per_occasion on messages (tenant_id, reservation_id, kind, occasion) nulls not distinct;
create index messages_by_reservation on messages (tenant_id, reservation_id, created_at desc);
create index messages_by_time on messages (tenant_id, created_at desc);

-- The local mail catcher (`npm start` without SMTP_URL) keeps what it caught here, per tenant: a
-- mail is matched to its message by the X-UnlockOS-Message-Id header, and one that matches none is
-- refused at the SMTP level, so no tenant ever sees another's mail.
create table caught_mail (
  tenant_id uuid not null references tenants (id) on delete cascade,
  id uuid not null default gen_random_uuid(),
  message_id uuid not null,
  mail_from text not null default '',
  rcpt_to text not null default '',
  subject text not null default '',
  text_body text not null default '',
  html_body text not null default '',
  attachments jsonb not null default '[]' check (jsonb_typeof(attachments) = 'array'),
  size_bytes integer not null default 0,
  received_at timestamptz not null default now(),
  primary key (tenant_id, id),
  foreign key (tenant_id, message_id) references messages (tenant_id, id) on delete cascade
);
create index caught_mail_by_time on caught_mail (tenant_id, received_at desc);

-- The language of a tenant's mail: the facility's (a facility in Japan writes Japanese), until
-- guests carry a language of their own. docs/decisions/014-guest-messages.md says why.
create function app_message_locale(p_tenant_id uuid, p_room_id uuid) returns text
  language sql stable
  set search_path = pg_catalog, public
as $$
  select case when coalesce((select f.time_zone from rooms ro join facilities f on f.tenant_id = ro.tenant_id and f.id = ro.facility_id
                              where ro.tenant_id = p_tenant_id and ro.id = p_room_id),
                            (select f.time_zone from facilities f where f.tenant_id = p_tenant_id order by f.created_at limit 1))
                   = 'Asia/Tokyo' then 'ja' else 'en' end
$$;

-- Adds one message and its job, once per (tenant, reservation, kind, occasion). Returns the new
-- row, or nothing when it already existed or there is no one to write to.
create function app_enqueue_message(p_tenant_id uuid, p_reservation_id uuid, p_incident_id uuid, p_user_id uuid,
                                    p_kind message_kind, p_occasion text, p_to text, p_locale text)
  returns setof messages
  language plpgsql volatile
  set search_path = pg_catalog, public
as $$
declare
  v_row messages;
begin
  if p_to is null or btrim(p_to) = '' then return; end if;
  insert into messages (tenant_id, reservation_id, incident_id, recipient_user_id, kind, occasion, to_address, locale)
  values (p_tenant_id, p_reservation_id, p_incident_id, p_user_id, p_kind, p_occasion, btrim(p_to), p_locale)
  on conflict (tenant_id, reservation_id, kind, occasion) do nothing
  returning * into v_row;
  if v_row.id is null then return; end if;
  -- Six attempts with graphile-worker's exponential backoff (about two minutes in all), then failed.
  perform app_enqueue_job('send_message', jsonb_build_object('tenantId', p_tenant_id, 'messageId', v_row.id),
                          job_key => 'message:' || v_row.id, max_attempts => 6);
  return next v_row;
end $$;
grant execute on function app_enqueue_message(uuid, uuid, uuid, uuid, message_kind, text, text, text) to app_service;

-- A guest's message about one reservation: to the guest's address, if the guest has one and the
-- stay is still ahead or under way. Returns the new row, if any.
create function app_enqueue_guest_message(p_tenant_id uuid, p_reservation_id uuid, p_kind message_kind, p_occasion text)
  returns setof messages
  language sql volatile
  set search_path = pg_catalog, public
as $$
  select m.* from reservations r
    join guests g on g.tenant_id = r.tenant_id and g.id = r.guest_id
    cross join lateral app_enqueue_message(r.tenant_id, r.id, null, null, p_kind, p_occasion, g.email,
                                           app_message_locale(r.tenant_id, r.room_id)) m
   where r.tenant_id = p_tenant_id and r.id = p_reservation_id
     and r.status not in ('cancelled', 'checked_out') and r.ends_at > now()
$$;
grant execute on function app_enqueue_guest_message(uuid, uuid, message_kind, text) to app_service;

-- Every path that creates a reservation or changes a stay writes its audit row in the same
-- transaction (desk, API, Calendly, Cal.com; move, PATCH, re-issue): the message follows from it.
create function audit_events_enqueue_messages() returns trigger
  language plpgsql
  set search_path = pg_catalog, public
as $$
declare
  v_reservation_id uuid;
begin
  if new.action = 'key.reissued' then
    select k.reservation_id into v_reservation_id from access_keys k
     where k.tenant_id = new.tenant_id and k.id = new.subject_id;
  else
    v_reservation_id := new.subject_id;
  end if;
  if v_reservation_id is null then return null; end if;
  -- One stay_changed per changing transaction: a move that also writes key.reissued is one change
  -- to the guest. The transaction id (xid8) never repeats in the cluster's life.
  perform app_enqueue_guest_message(new.tenant_id, v_reservation_id,
    case when new.action = 'reservation.created' then 'key_link' else 'stay_changed' end::message_kind,
    case when new.action = 'reservation.created' then 'booking' else 'change:' || pg_current_xact_id() end);
  return null;
end $$;
create trigger audit_events_enqueue_messages after insert on audit_events
  for each row when (new.action in ('reservation.created', 'reservation.moved', 'reservation.changed', 'key.reissued'))
  execute function audit_events_enqueue_messages();

-- Managers are told when a tenant's incident opens (level 1) and when its occurrences reach 5 and
-- 20, once per level and manager. Install-wide incidents (no tenant) are shown to every tenant's
-- staff but mailed to nobody: no tenant's managers own them (decision 008).
create function incidents_enqueue_messages() returns trigger
  language plpgsql
  set search_path = pg_catalog, public
as $$
declare
  v_level integer;
  v_locale text;
begin
  if new.tenant_id is null or new.resolved_at is not null then return null; end if;
  v_locale := app_message_locale(new.tenant_id, null);
  foreach v_level in array array[1, 5, 20] loop
    if new.occurrences >= v_level and (tg_op = 'INSERT' or old.occurrences < v_level) then
      perform app_enqueue_message(new.tenant_id, null, new.id, u.id,
                                  case when v_level = 1 then 'incident_opened' else 'incident_raised' end::message_kind,
                                  'incident:' || new.id || ':level:' || v_level || ':' || u.id, u.email, v_locale)
         from memberships m join users u on u.id = m.user_id
        where m.tenant_id = new.tenant_id and m.role = 'manager' and m.deactivated_at is null;
    end if;
  end loop;
  return null;
end $$;
create trigger incidents_enqueue_messages after insert or update of occurrences on incidents
  for each row execute function incidents_enqueue_messages();

-- Deleting a guest erases their address from every message (and drops what the local catcher
-- kept of those mails); a message not yet sent is not sent any more.
create function guests_erase_messages() returns trigger
  language plpgsql
  set search_path = pg_catalog, public
as $$
begin
  delete from caught_mail c using messages m, reservations r
   where c.tenant_id = old.tenant_id and m.tenant_id = c.tenant_id and m.id = c.message_id
     and r.tenant_id = m.tenant_id and r.id = m.reservation_id and r.guest_id = old.id;
  update messages m
     set to_address = null,
         status = case when m.status in ('queued', 'sending') then 'skipped'::message_status else m.status end,
         last_error = case when m.status in ('queued', 'sending') then 'guest_deleted' else m.last_error end,
         updated_at = now()
    from reservations r
   where m.tenant_id = old.tenant_id and r.tenant_id = m.tenant_id and r.id = m.reservation_id and r.guest_id = old.id;
  return old;
end $$;
create trigger guests_erase_messages before delete on guests
  for each row execute function guests_erase_messages();

-- Staff read; the service role writes, confined to the tenant its transaction names.
grant select on messages, caught_mail to app_authenticated;
grant select, insert, update on messages to app_service;
grant select, insert, delete on caught_mail to app_service;
do $$
declare t text;
begin
  foreach t in array array['messages', 'caught_mail']
  loop
    execute format('alter table %I enable row level security', t);
    execute format('alter table %I force row level security', t);
    execute format('create policy service_all on %I to app_service
      using (app_current_tenant() is null or tenant_id = app_current_tenant())
      with check (app_current_tenant() is null or tenant_id = app_current_tenant())', t);
    execute format('create policy tenant_isolation on %I to app_authenticated
      using (tenant_id = app_current_tenant())', t);
  end loop;
end $$;
