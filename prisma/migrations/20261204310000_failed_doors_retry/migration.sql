-- Issue 28, item 11 (a): a door whose code failed is sent again by itself — when its lock comes back
-- online (a provider's device event, or a status read that sees it online), and on a schedule whose
-- last wait ends before the stay starts — not only when a manager presses Re-sync.

alter table key_lock_codes add column auto_retries integer not null default 0;
-- When the schedule sends this failed door again; null while not failed, or for a failure no retry can cure.
alter table key_lock_codes add column next_retry_at timestamptz;

create index key_lock_codes_retry_due on key_lock_codes (next_retry_at, tenant_id)
  where state = 'failed' and next_retry_at is not null;

-- Failures that sending the same code again cannot cure: the desk re-issues the key, or someone
-- changes the room's doors. Everything else (offline, busy, quota, clock, not confirmed, credentials
-- fixed meanwhile, a lock that refused once) is worth another try.
create function app_door_failure_is_final(p_code text) returns boolean
  language sql immutable
  set search_path = pg_catalog
as $$
  select coalesce(p_code, '') in ('duplicate_code_on_device', 'offline_lock_needs_single_door', 'offline_codes_unsupported',
    'invalid_device_id', 'invalid_code_id', 'ambiguous_codes', 'code_device_mismatch', 'invalid_code_length',
    'code_too_simple', 'not_supported_by_device', 'invalid_parameter', 'invalid_input')
$$;
grant execute on function app_door_failure_is_final(text) to app_service, app_authenticated;

-- Every path that fails a door (the worker's last attempt, a provider's "failed to set" event) gets
-- its next try scheduled here: 5 minutes after the first failure, doubling with each automatic retry
-- up to 3 hours — but never later than 30 minutes before the stay starts (the backup check runs at
-- 15), while that is still ahead.
create function key_lock_codes_schedule_retry() returns trigger
  language plpgsql
  set search_path = pg_catalog, public
as $$
declare
  v_starts timestamptz;
  v_next timestamptz;
  v_deadline timestamptz;
begin
  if new.state is distinct from 'failed' then
    new.next_retry_at := null;
    return new;
  end if;
  if tg_op = 'UPDATE' and old.state = 'failed' then return new; end if;
  if app_door_failure_is_final(new.error) then
    new.next_retry_at := null;
    return new;
  end if;
  select coalesce(r.starts_at, k.valid_from) into v_starts
    from access_keys k left join reservations r on r.tenant_id = k.tenant_id and r.id = k.reservation_id
   where k.tenant_id = new.tenant_id and k.id = new.key_id;
  v_next := now() + least(interval '5 minutes' * power(2, least(new.auto_retries, 6)), interval '3 hours');
  v_deadline := v_starts - interval '30 minutes';
  if v_deadline > now() and v_deadline < v_next then v_next := v_deadline; end if;
  new.next_retry_at := v_next;
  return new;
end $$;
create trigger key_lock_codes_schedule_retry before insert or update of state on key_lock_codes
  for each row execute function key_lock_codes_schedule_retry();

-- Sends failed doors of one tenant's live keys again: on `p_lock_id` (that lock is back online) every
-- retryable one, else (the schedule) those due. Each door goes back to `pending` with a fresh round
-- of attempts, counted in `auto_retries`, and its key's program job is queued in this transaction. A
-- failed re-window on a lock back online is tried again too. Takes the locks every door writer takes,
-- in the same order (stays, then keys, then doors: lib/locks/lock-order.ts). Returns the doors retried.
create function app_retry_failed_doors(p_tenant_id uuid, p_lock_id uuid default null, p_limit integer default 200)
  returns integer
  language plpgsql volatile
  set search_path = pg_catalog, public
as $$
declare
  v_keys uuid[];
  v_rewindow uuid[];
  v_key uuid;
  v_doors integer;
begin
  select coalesce(array_agg(distinct d.key_id), '{}') into v_keys from (
    select c.key_id from key_lock_codes c
      join access_keys k on k.tenant_id = c.tenant_id and k.id = c.key_id
     where c.tenant_id = p_tenant_id and c.state = 'failed' and c.next_retry_at is not null
       and k.status in ('pre_issued', 'active')
       and (case when p_lock_id is null then c.next_retry_at <= now() else c.lock_id = p_lock_id end)
     order by c.next_retry_at
     limit p_limit) d;
  select coalesce(array_agg(distinct c.key_id), '{}') into v_rewindow
    from key_lock_codes c join access_keys k on k.tenant_id = c.tenant_id and k.id = c.key_id
   where p_lock_id is not null and c.tenant_id = p_tenant_id and c.lock_id = p_lock_id
     and c.rewindow_error is not null and not c.rewindow and k.status in ('pre_issued', 'active');
  if cardinality(v_keys) + cardinality(v_rewindow) = 0 then return 0; end if;

  perform 1 from reservations r
    where r.tenant_id = p_tenant_id
      and r.id in (select k.reservation_id from access_keys k
                    where k.tenant_id = p_tenant_id and k.id = any(v_keys || v_rewindow))
    order by r.id for key share of r;
  perform 1 from access_keys
    where tenant_id = p_tenant_id and id = any(v_keys || v_rewindow) order by id for no key update;

  with retried as (
    update key_lock_codes c set state = 'pending', attempts = 0, auto_retries = c.auto_retries + 1, updated_at = now()
      from access_keys k
     where k.tenant_id = c.tenant_id and k.id = c.key_id and k.status in ('pre_issued', 'active')
       and c.tenant_id = p_tenant_id and c.key_id = any(v_keys) and c.state = 'failed' and c.next_retry_at is not null
       and (case when p_lock_id is null then c.next_retry_at <= now() else c.lock_id = p_lock_id end)
    returning c.key_id
  )
  select count(*) into v_doors from retried;
  foreach v_key in array v_keys loop
    perform app_enqueue_job('vendor_program_key', jsonb_build_object('tenantId', p_tenant_id, 'keyId', v_key),
                            queue_name => 'key:' || v_key, max_attempts => 8);
  end loop;

  update key_lock_codes set rewindow = true, updated_at = now()
   where tenant_id = p_tenant_id and lock_id = p_lock_id and key_id = any(v_rewindow)
     and rewindow_error is not null and not rewindow;
  foreach v_key in array v_rewindow loop
    perform app_enqueue_job('vendor_rewindow_key', jsonb_build_object('tenantId', p_tenant_id, 'keyId', v_key),
                            queue_name => 'key:' || v_key, max_attempts => 8);
  end loop;
  return v_doors + cardinality(v_rewindow);
end $$;
revoke all on function app_retry_failed_doors(uuid, uuid, integer) from public;
grant execute on function app_retry_failed_doors(uuid, uuid, integer) to app_service;
