-- Issue 28, item 7: a staff code's rules, once, in PostgreSQL — the desk allowed a code until 2036
-- while the API capped 31 days. Every live staff code, however it is written (create_staff_code from
-- the desk or the API, reissue_key, the offline-code replacement, a statement of the service role):
-- at most 31 days, ending in the future, for an active member of the tenant, on a room not archived.
-- And a code ends when its member is deactivated (or leaves) or its room is archived.
--
-- Errors raised here (lib/db/errors.ts maps them):
--   UK006 a staff code's window breaks the rule → 400 invalid_request (endsAt)

create function access_keys_staff_code_rules() returns trigger
  language plpgsql
  set search_path = pg_catalog, public
as $$
begin
  if new.expires_at - new.valid_from > interval '31 days' then
    raise exception 'A staff code lasts at most 31 days.' using errcode = 'UK006', detail = 'endsAt';
  end if;
  if tg_op = 'INSERT' and new.expires_at <= now() then
    raise exception 'A staff code must end in the future.' using errcode = 'UK006', detail = 'endsAt';
  end if;
  if new.staff_user_id is not null and not exists (
       select 1 from memberships m
        where m.tenant_id = new.tenant_id and m.user_id = new.staff_user_id and m.deactivated_at is null) then
    raise exception 'user % not found', new.staff_user_id using errcode = 'UN404';
  end if;
  if exists (select 1 from rooms r where r.tenant_id = new.tenant_id and r.id = new.room_id and r.archived_at is not null) then
    raise exception 'This room is archived and takes no staff codes.' using errcode = 'UR002';
  end if;
  return new;
end $$;
create trigger access_keys_staff_code_rules
  before insert or update of valid_from, expires_at, staff_user_id, status, room_id on access_keys
  for each row when (new.kind = 'staff' and new.status in ('pre_issued', 'active'))
  execute function access_keys_staff_code_rules();

-- The member's live codes end with their membership.
create function memberships_end_staff_codes() returns trigger
  language plpgsql
  set search_path = pg_catalog, public
as $$
declare
  v_key uuid;
begin
  for v_key in select id from access_keys
    where tenant_id = old.tenant_id and kind = 'staff' and staff_user_id = old.user_id and status in ('pre_issued', 'active')
    order by created_at, id
  loop
    perform app_end_key(old.tenant_id, v_key, 'revoked', 'member_deactivated', 'system', null, 'member deactivated');
  end loop;
  return null;
end $$;
create trigger memberships_end_staff_codes after update of deactivated_at on memberships
  for each row when (old.deactivated_at is null and new.deactivated_at is not null)
  execute function memberships_end_staff_codes();
create trigger memberships_end_staff_codes_on_delete after delete on memberships
  for each row execute function memberships_end_staff_codes();

-- An archived room's live codes end with it (its stays to come were refused before it was archived).
create function rooms_end_staff_codes() returns trigger
  language plpgsql
  set search_path = pg_catalog, public
as $$
declare
  v_key uuid;
begin
  for v_key in select id from access_keys
    where tenant_id = new.tenant_id and room_id = new.id and kind = 'staff' and status in ('pre_issued', 'active')
    order by created_at, id
  loop
    perform app_end_key(new.tenant_id, v_key, 'revoked', 'room_archived', 'system', null, 'room archived');
  end loop;
  return null;
end $$;
create trigger rooms_end_staff_codes after update of archived_at on rooms
  for each row when (old.archived_at is null and new.archived_at is not null)
  execute function rooms_end_staff_codes();

-- Codes already written past these rules end now, each audited, its removal queued.
do $$
declare
  v_key access_keys;
begin
  for v_key in
    select k.* from access_keys k
     where k.kind = 'staff' and k.status in ('pre_issued', 'active')
       and (k.expires_at - k.valid_from > interval '31 days'
            or exists (select 1 from rooms r where r.tenant_id = k.tenant_id and r.id = k.room_id and r.archived_at is not null)
            or (k.staff_user_id is not null and not exists (
                  select 1 from memberships m
                   where m.tenant_id = k.tenant_id and m.user_id = k.staff_user_id and m.deactivated_at is null)))
     order by k.created_at, k.id
  loop
    perform app_end_key(v_key.tenant_id, v_key.id, 'revoked', 'staff_code_rules', 'system', null, 'staff code rules');
  end loop;
end $$;
