-- A check-out before the stay's end ends the stay then.
CREATE OR REPLACE FUNCTION public.check_out_reservation(p_tenant_id uuid, p_reservation_id uuid, p_actor_type actor_type, p_actor_id text, p_actor_label text)
 RETURNS reservations
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_res reservations;
  v_booked reservations;
  v_key uuid;
  v_revoked uuid[] := '{}';
  v_check_in check_ins;
begin
  select * into v_res from reservations where tenant_id = p_tenant_id and id = p_reservation_id for update;
  if not found then
    raise exception 'reservation % not found', p_reservation_id using errcode = 'UN404';
  end if;
  if v_res.status = 'checked_out' then
    return v_res;
  end if;
  if v_res.status <> 'checked_in' then
    raise exception 'This stay was never checked in, so it cannot be checked out.'
      using errcode = 'UR004', detail = v_res.status::text;
  end if;
  v_booked := v_res;
  update check_ins set checked_out_at = now() where tenant_id = p_tenant_id and reservation_id = p_reservation_id
  returning * into v_check_in;
  update reservations
     set status = 'checked_out',
         starts_at = case when now() < starts_at then least(starts_at, v_check_in.created_at) else starts_at end,
         ends_at = least(ends_at, now())
   where tenant_id = p_tenant_id and id = p_reservation_id returning * into v_res;
  for v_key in select id from access_keys
    where tenant_id = p_tenant_id and reservation_id = p_reservation_id and status in ('pre_issued', 'active') and kind <> 'backup'
    order by created_at
  loop
    if (select id from app_end_key(p_tenant_id, v_key, 'revoked', 'checked_out', p_actor_type, p_actor_id, p_actor_label)) is not null then
      v_revoked := v_revoked || v_key;
    end if;
  end loop;
  perform app_audit(p_tenant_id, p_actor_type, p_actor_id, p_actor_label, 'checkout.completed', 'reservation', p_reservation_id,
                    v_res.room_id, null,
                    jsonb_build_object('checkInId', v_check_in.id, 'revokedKeyIds', to_jsonb(v_revoked))
                      || case when v_res.ends_at < v_booked.ends_at
                           then jsonb_build_object('bookedEndsAt', v_booked.ends_at, 'bookedStartsAt', v_booked.starts_at)
                           else '{}'::jsonb end);
  return v_res;
end $function$;
