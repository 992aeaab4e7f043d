-- Issue 32 (item 4): an iCal feed imports into one room or into a room type. A room type's feed books each UID on
-- the first of the type's rooms that is free for it (the rooms' exclusion constraint decides, as for a Cal.com event
-- type mapped to a room type); a feed has exactly one target.
alter table ical_feeds alter column room_id drop not null;
alter table ical_feeds add column room_type_id uuid;
alter table ical_feeds add constraint ical_feeds_room_type_fk
  foreign key (tenant_id, room_type_id) references room_types (tenant_id, id) on delete cascade;
alter table ical_feeds add constraint ical_feeds_one_target check (num_nonnulls(room_id, room_type_id) = 1);
alter table ical_feeds add constraint ical_feeds_room_type_url unique (tenant_id, room_type_id, url);
