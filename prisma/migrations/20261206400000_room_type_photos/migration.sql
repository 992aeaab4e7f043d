-- Issue 30: a room type's photos, shown on the booking site.
--
-- A photo is a row of its own (the bytes, their type, the words a screen reader says) instead of the unused
-- room_types.photos array: the database then holds the limits itself — at most six a type (a position 0–5,
-- unique per type), at most 1 MiB each, a JPEG, PNG or WebP (the application checks the bytes' own signature;
-- the type column can only say one of those). Photos go with their type.
alter table room_types drop column photos;

create table room_type_photos (
  tenant_id uuid not null references tenants (id) on delete cascade,
  id uuid not null default gen_random_uuid(),
  room_type_id uuid not null,
  position smallint not null check (position between 0 and 5),
  content_type text not null check (content_type in ('image/jpeg', 'image/png', 'image/webp')),
  bytes bytea not null check (octet_length(bytes) between 1 and 1048576),
  alt text not null default '' check (length(alt) <= 200),
  created_at timestamptz not null default now(),
  primary key (tenant_id, id),
  unique (tenant_id, room_type_id, position),
  foreign key (tenant_id, room_type_id) references room_types (tenant_id, id) on delete cascade
);

grant select on room_type_photos to app_authenticated;
grant select, insert, update, delete on room_type_photos to app_service;

alter table room_type_photos enable row level security;
alter table room_type_photos force row level security;
create policy service_all on room_type_photos to app_service using (true) with check (true);
create policy tenant_isolation on room_type_photos to app_authenticated
  using (tenant_id = app_current_tenant()) with check (tenant_id = app_current_tenant());
