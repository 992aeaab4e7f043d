-- A window change of a live key, on the record and on every door that has its code (the job `vendor_rewindow_key`),
-- audited `key.window_changed` with the reason.
CREATE OR REPLACE FUNCTION public.app_rewindow_key(p_tenant_id uuid, p_key access_keys, p_from timestamp with time zone, p_to timestamp with time zone, p_reason text, p_actor_type actor_type, p_actor_id text, p_actor_label text)
 RETURNS void
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  if p_from = p_key.valid_from and p_to = p_key.expires_at then
    return;
  end if;
  update access_keys set valid_from = p_from, expires_at = p_to where tenant_id = p_tenant_id and id = p_key.id;
  if p_key.kind = 'guest' then
    update key_lock_codes set rewindow = true, updated_at = now()
     where tenant_id = p_tenant_id and key_id = p_key.id and state in ('pending', 'setting', 'set');
    perform app_enqueue_job('vendor_rewindow_key', jsonb_build_object('tenantId', p_tenant_id, 'keyId', p_key.id),
                            queue_name => 'key:' || p_key.id, max_attempts => 8);
  end if;
  perform app_audit(p_tenant_id, p_actor_type, p_actor_id, p_actor_label, 'key.window_changed', 'access_key', p_key.id,
                    p_key.room_id, p_reason,
                    jsonb_build_object('reservationId', p_key.reservation_id,
                                       'from', jsonb_build_object('validFrom', p_key.valid_from, 'expiresAt', p_key.expires_at),
                                       'to', jsonb_build_object('validFrom', p_from, 'expiresAt', p_to)));
end $function$;
