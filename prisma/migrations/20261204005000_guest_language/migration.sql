-- Issue 28, item 12: a guest's mails are in the guest's language. They were Japanese for any
-- facility in Asia/Tokyo, whoever the guest. Now: the booking's locale (the API's `locale`, the
-- desk's choice, the provider's attendee language), else the facility's default language, a
-- setting of its own. Facilities in Asia/Tokyo start with Japanese (what their guests got so far).

alter table facilities add column default_language text not null default 'en'
  check (default_language in ('en', 'ja'));
update facilities set default_language = 'ja' where time_zone = 'Asia/Tokyo';

alter table reservations add column locale text check (locale in ('en', 'ja'));

-- The language of the room's facility (a tenant-wide mail: its first facility's).
create or replace function app_message_locale(p_tenant_id uuid, p_room_id uuid) returns text
  language sql stable
  set search_path = pg_catalog, public
as $$
  select coalesce((select f.default_language from rooms ro join facilities f on f.tenant_id = ro.tenant_id and f.id = ro.facility_id
                    where ro.tenant_id = p_tenant_id and ro.id = p_room_id),
                  (select f.default_language from facilities f where f.tenant_id = p_tenant_id order by f.created_at limit 1),
                  'en')
$$;

create or replace function app_enqueue_guest_message(p_tenant_id uuid, p_reservation_id uuid, p_kind message_kind, p_occasion text)
  returns setof messages
  language sql
  set search_path = pg_catalog, public
as $$
  select m.* from reservations r
    join guests g on g.tenant_id = r.tenant_id and g.id = r.guest_id
    cross join lateral app_enqueue_message(r.tenant_id, r.id, null, null, p_kind, p_occasion, g.email,
                                           coalesce(r.locale, app_message_locale(r.tenant_id, r.room_id))) m
   where r.tenant_id = p_tenant_id and r.id = p_reservation_id
     and r.status not in ('cancelled', 'checked_out') and r.ends_at > now()
$$;
