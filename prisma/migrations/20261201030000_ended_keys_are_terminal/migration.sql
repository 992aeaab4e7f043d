-- Ended keys are terminal (issue 12, item 5). The transition trigger compared old and new status,
-- so revoked -> revoked and expired -> expired passed: two paths racing to end one key (revoke and
-- cancel, expiry and issuance, deletion and check-in) both "ended" it — the second overwrote the
-- reason, wrote a second audit row and queued a second removal.

-- 1. Any UPDATE that names an ended key's status, window or reason is refused, even to the same
--    value (the column list of the trigger fires on the SET list, not on a change). Lock-sync
--    bookkeeping (vendor_sync, vendor_key_id, vendor_error) stays writable: the removal job needs it.
create function access_keys_guard_ended() returns trigger
  language plpgsql
  set search_path = pg_catalog, public
as $$
begin
  if old.status in ('revoked', 'expired') then
    raise exception 'an ended key (%) cannot change its status, window or reason', old.status
      using errcode = 'UK001', detail = format('from=%s to=%s', old.status, new.status);
  end if;
  return new;
end $$;
create trigger access_keys_guard_ended before update of status, valid_from, expires_at, revoked_reason, revoked_at
  on access_keys for each row execute function access_keys_guard_ended();

-- 2. Every ending path ends only live keys: app_end_key updates a pre-issued or active key and
--    returns it, or returns null (no audit row, no removal job) when the key had already ended —
--    which is what a racer that waited on the row lock finds once the first ender commits.
create or replace function app_end_key(p_tenant_id uuid, p_key_id uuid, p_status key_status, p_reason text,
                                       p_actor_type actor_type, p_actor_id text, p_actor_label text)
  returns access_keys
  language plpgsql volatile
  set search_path = pg_catalog, public
as $$
declare
  v_key access_keys;
begin
  if p_status not in ('revoked', 'expired') then
    raise exception 'app_end_key ends keys; % is not an ending', p_status using errcode = 'UK001',
      detail = format('from=live to=%s', p_status);
  end if;
  update access_keys
     set status = p_status,
         revoked_reason = case when p_status = 'revoked' then p_reason end,
         revoked_at = case when p_status = 'revoked' then now() end,
         vendor_sync = 'pending', vendor_error = null
   where tenant_id = p_tenant_id and id = p_key_id and status in ('pre_issued', 'active')
  returning * into v_key;
  if not found then
    return null;
  end if;
  perform app_audit(p_tenant_id, p_actor_type, p_actor_id, p_actor_label,
                    case when p_status = 'revoked' then 'key.revoked' else 'key.expired' end,
                    'access_key', v_key.id, v_key.room_id, p_reason,
                    jsonb_build_object('reservationId', v_key.reservation_id, 'checkInId', v_key.check_in_id));
  perform app_enqueue_job('vendor_remove_key', jsonb_build_object('tenantId', p_tenant_id, 'keyId', v_key.id),
                          queue_name => 'key:' || v_key.id, max_attempts => 8);
  return v_key;
end $$;
