-- Issue 32, item 3: every setup step in the browser.
--
-- 1. A door taken off a room while a stay's key lives: the key's row for that lock stays (its code has to come off
--    the lock, and the timeline keeps it) but is `detached` — no longer one of the key's doors, so it does not count
--    in the key's vendor_sync (app_key_sync_of_doors). The functions prisma/sql/rooms/app_remove_room_door.sql and
--    app_replace_room_lock.sql take the room's door lock (app_lock_room_doors) that access_keys_add_doors shares.
alter table key_lock_codes add column detached boolean not null default false;
comment on column key_lock_codes.detached is
  'The lock stopped being a door of the key''s room while the key lived: the code is being (or was) removed.';

-- 2. The languages a facility offers its guests (the app's locales); its default language is one of them.
alter table facilities
  add column guest_languages text[] not null default '{en,ja}'
    check (cardinality(guest_languages) between 1 and 2 and guest_languages <@ array['en', 'ja']::text[]),
  add constraint facilities_default_language_offered check (default_language = any (guest_languages));
