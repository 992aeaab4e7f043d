-- Trigger: every path that fails a door (the worker's last attempt, a provider's "failed to set" event) gets its
-- next try scheduled here: 5 minutes after the first failure, doubling with each automatic retry up to 3 hours — but
-- never later than 30 minutes before the stay starts (the backup check runs at 15), while that is still ahead.
CREATE OR REPLACE FUNCTION public.key_lock_codes_schedule_retry()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
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
end $function$;
