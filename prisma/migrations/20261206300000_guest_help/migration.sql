-- Issue 31, items 5 and 6: automatic check-out at a stay's end, the property's email on the guest page, and
-- guests' messages to the desk (a message, or "my code does not work") on the reservation's timeline and the
-- desk's day. Functions live in prisma/sql (stays/check_out_ended_stays.sql, guests/app_guest_post_message.sql,
-- guests/app_report_code_problem.sql, guests/app_guest_ended_stay.sql).

-- 1. How a guest reaches the property: its email beside its phone (managers set it in the facility settings).
alter table facilities
  add column email text check (email is null or (length(email) <= 254 and email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'));
-- The guest page reads it through the link, like the phone (column grants, as in 20261201190000_guest_page).
grant select (email) on facilities to app_anon;

-- The ended stay's page names the email too: its file (guests/app_guest_ended_stay.sql) defines the new
-- signature, with its grant, after this migration.
drop function if exists app_guest_ended_stay();

-- 2. What a guest sent the desk from the link. A `message` has a body (1–2000 characters); a `code_problem`
--    ("my code does not work") has none, is high priority, and is one report however often it is tapped within
--    five minutes: the reporting function looks for one under a lock per reservation, and the unique index on its
--    five-minute bucket holds it in PostgreSQL whatever the writer. The guest's own id makes deleting the guest
--    delete what they wrote (the audit rows that say a message came name no body).
create type guest_message_kind as enum ('message', 'code_problem');

create table guest_messages (
  tenant_id uuid not null references tenants (id) on delete cascade,
  id uuid not null default gen_random_uuid(),
  reservation_id uuid not null,
  guest_id uuid not null,
  kind guest_message_kind not null,
  body text check (body is null or length(btrim(body)) between 1 and 2000),
  priority text not null check (priority in ('normal', 'high')),
  report_bucket timestamptz,
  -- Taps counted into one report (a code problem); 1 for a message.
  occurrences integer not null default 1 check (occurrences >= 1),
  -- The backup code the report was answered with, where the lock's provider keeps a pool.
  backup_key_id uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  read_at timestamptz,
  read_by uuid references users (id) on delete set null,
  primary key (tenant_id, id),
  foreign key (tenant_id, reservation_id) references reservations (tenant_id, id) on delete cascade,
  foreign key (tenant_id, guest_id) references guests (tenant_id, id) on delete cascade,
  foreign key (tenant_id, backup_key_id) references access_keys (tenant_id, id) on delete set null (backup_key_id),
  constraint guest_messages_body_of_kind check ((kind = 'message') = (body is not null)),
  constraint guest_messages_bucket_of_kind check ((kind = 'code_problem') = (report_bucket is not null)),
  constraint guest_messages_priority_of_kind check (kind = 'message' or priority = 'high'),
  constraint guest_messages_read_by_reader check (read_by is null or read_at is not null)
);
create unique index guest_messages_one_report_per_bucket on guest_messages (tenant_id, reservation_id, report_bucket)
  where kind = 'code_problem';
create index guest_messages_of_reservation on guest_messages (tenant_id, reservation_id, created_at desc);
create index guest_messages_unread on guest_messages (tenant_id, created_at desc) where read_at is null;

-- Staff read their tenant's guest messages (RLS by tenant); writes go through the service role.
grant select on guest_messages to app_authenticated;
grant select, insert, update, delete on guest_messages to app_service;
alter table guest_messages enable row level security;
alter table guest_messages force row level security;
create policy service_all on guest_messages to app_service using (true) with check (true);
create policy tenant_isolation on guest_messages to app_authenticated
  using (tenant_id = app_current_tenant()) with check (tenant_id = app_current_tenant());

-- 3. The automatic check-out finds checked-in stays past their end without reading every stay.
create index reservations_checked_in_by_end on reservations (tenant_id, ends_at) where status = 'checked_in';
