-- Cancels a reservation: frees its room (the exclusion constraint ignores cancelled rows) and revokes its live keys,
-- each audited, in one transaction.
CREATE OR REPLACE FUNCTION public.cancel_reservation(p_tenant_id uuid, p_reservation_id uuid, p_reason text, p_key_reason text, p_actor_type actor_type, p_actor_id text, p_actor_label text)
 RETURNS reservations
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_res reservations;
  v_key uuid;
begin
  select * into v_res from reservations where tenant_id = p_tenant_id and id = p_reservation_id for update;
  if not found then
    raise exception 'reservation % not found', p_reservation_id using errcode = 'UN404';
  end if;
  if v_res.status = 'cancelled' then
    return v_res;
  end if;
  update reservations set status = 'cancelled', cancelled_at = now(), cancel_reason = p_reason
   where tenant_id = p_tenant_id and id = p_reservation_id returning * into v_res;
  for v_key in select id from access_keys
    where tenant_id = p_tenant_id and reservation_id = p_reservation_id and status in ('pre_issued', 'active') order by created_at
  loop
    perform app_end_key(p_tenant_id, v_key, 'revoked', p_key_reason, p_actor_type, p_actor_id, p_actor_label);
  end loop;
  perform app_audit(p_tenant_id, p_actor_type, p_actor_id, p_actor_label, 'reservation.cancelled', 'reservation', p_reservation_id,
                    v_res.room_id, p_reason, jsonb_build_object('bookingGroupId', v_res.booking_group_id));
  return v_res;
end $function$;
