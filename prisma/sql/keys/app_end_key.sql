-- Every ending path ends only live keys: app_end_key updates a pre-issued or active key and returns it, or returns
-- null (no audit row, no removal job) when the key had already ended — which is what a racer that waited on the row
-- lock finds once the first ender commits.
CREATE OR REPLACE FUNCTION public.app_end_key(p_tenant_id uuid, p_key_id uuid, p_status key_status, p_reason text, p_actor_type actor_type, p_actor_id text, p_actor_label text)
 RETURNS access_keys
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
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
end $function$;
