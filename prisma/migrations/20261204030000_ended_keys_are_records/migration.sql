-- Issue 28, item 12: an ended key is a record, not a key. The guard named only its status, window
-- and reason, so an ended key's kind, stay, links or labels could still be rewritten (and with
-- them what the desk, the audit and the guest page say a PIN was). Now an UPDATE that names any of
-- its columns is refused (UK001), even to the same value — but the lock-sync bookkeeping the
-- removal job writes (`vendor_sync`, `vendor_error`, `updated_at`) and `staff_user_id`, which the
-- foreign key sets to null when a user is deleted. And a key's kind is part of its identity (UK002)
-- whatever its state, like its PIN, room, stay and tenant.

create or replace function access_keys_guard_ended() returns trigger
  language plpgsql
  set search_path = pg_catalog, public
as $$
begin
  if old.status in ('revoked', 'expired') then
    raise exception 'an ended key (%) is a record: it cannot change', old.status
      using errcode = 'UK001', detail = format('from=%s to=%s', old.status, new.status);
  end if;
  return new;
end $$;
drop trigger access_keys_guard_ended on access_keys;
create trigger access_keys_guard_ended
  before update of tenant_id, id, reservation_id, check_in_id, room_id, status, pin, valid_from, expires_at, revoked_reason,
                   revoked_at, created_at, pin_revealed_at, kind, backup_for, staff_label, staff_purpose, issued_by_id,
                   issued_by_label, replaces
  on access_keys
  for each row execute function access_keys_guard_ended();

create or replace function access_keys_guard_transition() returns trigger
  language plpgsql
  set search_path = pg_catalog, public
as $$
begin
  if new.status is distinct from old.status and not (
       (old.status = 'pre_issued' and new.status in ('active', 'revoked', 'expired'))
    or (old.status = 'active' and new.status in ('revoked', 'expired'))
  ) then
    raise exception 'illegal key transition from % to %', old.status, new.status
      using errcode = 'UK001', detail = format('from=%s to=%s', old.status, new.status);
  end if;
  if new.pin is distinct from old.pin or new.room_id is distinct from old.room_id
     or new.reservation_id is distinct from old.reservation_id or new.tenant_id is distinct from old.tenant_id
     or new.kind is distinct from old.kind or new.id is distinct from old.id then
    raise exception 'an access key''s identity cannot change' using errcode = 'UK002';
  end if;
  new.updated_at := now();
  return new;
end $$;
