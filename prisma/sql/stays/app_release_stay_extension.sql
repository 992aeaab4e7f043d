-- Releases a held extension that was not paid, under the stay's lock: at its hold's end (the job), or at once when
-- Stripe says its Checkout Session expired. The stay keeps its end; the added time is free again. Returns 1 or 0.
CREATE OR REPLACE FUNCTION public.app_release_stay_extension(p_tenant_id uuid, p_extension_id uuid, p_reason text, p_now_anyway boolean)
 RETURNS integer
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_ext stay_extensions;
begin
  perform 1 from reservations r
    join stay_extensions e on e.tenant_id = r.tenant_id and e.reservation_id = r.id
   where e.tenant_id = p_tenant_id and e.id = p_extension_id
     for update of r;
  select * into v_ext from stay_extensions e where e.tenant_id = p_tenant_id and e.id = p_extension_id for update;
  if not found or v_ext.status <> 'held' then
    return 0;
  end if;
  if not p_now_anyway and v_ext.hold_expires_at > now() then
    return 0;
  end if;
  update stay_extensions e set status = 'released', updated_at = now()
   where e.tenant_id = p_tenant_id and e.id = p_extension_id;
  perform app_audit(p_tenant_id, 'system', null, 'Payment', 'reservation.extension_released', 'reservation',
                    v_ext.reservation_id, v_ext.room_id, p_reason, jsonb_build_object('extensionId', p_extension_id));
  return 1;
end $function$;
