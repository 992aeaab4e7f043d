-- Sends failed doors of one tenant's live keys again: on `p_lock_id` (that lock is back online) every retryable one,
-- else (the schedule) those due.
CREATE OR REPLACE FUNCTION public.app_retry_failed_doors(p_tenant_id uuid, p_lock_id uuid DEFAULT NULL::uuid, p_limit integer DEFAULT 200)
 RETURNS integer
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
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
end $function$;
