-- Issue 15, item 9: a manager sets up and runs a property from /manage. Two rules the pages rely
-- on, kept by the database whoever writes: an archived room takes no new stays, and a tenant keeps
-- at least one active manager.

-- An archived room takes no new reservation, and no reservation moves into it (UR005, the room id
-- as JSON in DETAIL, like UB001). The room's row is read FOR SHARE: archiving (which locks the row
-- FOR UPDATE before it looks for future stays) and a booking of the same room wait for each other,
-- so neither misses the other. Security definer: FOR SHARE needs a privilege the reader may lack.
create function reservations_refuse_archived_room() returns trigger
language plpgsql security definer set search_path = pg_catalog, public as $$
declare
  v_archived timestamptz;
begin
  if tg_op = 'UPDATE' and new.room_id = old.room_id then
    return new;
  end if;
  select ro.archived_at into v_archived from rooms ro
   where ro.tenant_id = new.tenant_id and ro.id = new.room_id for share;
  if v_archived is not null then
    raise exception 'room % is archived and takes no new stays', new.room_id
      using errcode = 'UR005', detail = jsonb_build_array(new.room_id)::text;
  end if;
  return new;
end $$;

create trigger reservations_refuse_archived_room before insert or update of room_id on reservations
  for each row execute function reservations_refuse_archived_room();

-- At least one active manager per tenant: a change that leaves a tenant's last active manager
-- demoted or deactivated is refused (UM001). Changes to one tenant's memberships take a lock per
-- tenant first, and each statement then reads what the others committed (read committed), so two
-- managers demoting each other at once leave one of them a manager. A tenant being deleted (its
-- memberships cascade) is not held back.
create function memberships_keep_a_manager() returns trigger
language plpgsql security definer set search_path = pg_catalog, public as $$
begin
  if not (old.role = 'manager' and old.deactivated_at is null) then
    return null;
  end if;
  if tg_op = 'UPDATE' and new.role = 'manager' and new.deactivated_at is null then
    return null;
  end if;
  perform pg_advisory_xact_lock(hashtextextended('memberships:' || old.tenant_id::text, 0));
  if not exists (select 1 from tenants t where t.id = old.tenant_id) then
    return null;
  end if;
  if not exists (select 1 from memberships m
                  where m.tenant_id = old.tenant_id and m.role = 'manager' and m.deactivated_at is null) then
    raise exception 'tenant % would have no active manager', old.tenant_id
      using errcode = 'UM001', detail = old.user_id::text;
  end if;
  return null;
end $$;

create trigger memberships_keep_a_manager after update of role, deactivated_at or delete on memberships
  for each row execute function memberships_keep_a_manager();
