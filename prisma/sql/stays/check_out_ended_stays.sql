-- Checks out one tenant's checked-in stays past their end (up to p_limit): keys expired, audited reason stay_ended.
CREATE OR REPLACE FUNCTION public.check_out_ended_stays(p_tenant_id uuid, p_limit integer DEFAULT 200)
 RETURNS integer
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_res reservations;
  v_check_in check_ins;
  v_key uuid;
  v_expired uuid[];
  n integer := 0;
begin
  -- A stay another transaction holds (a desk or guest check-out, a move, another run of this sweep) is skipped: that
  -- writer decides it, and a stay still checked in after it commits is taken on the next run. A row whose status or
  -- end changed before we locked it is checked again against the condition (PostgreSQL re-reads a locked row).
  for v_res in select * from reservations
    where tenant_id = p_tenant_id and status = 'checked_in' and ends_at <= now()
    order by ends_at limit p_limit for update skip locked
  loop
    -- What check_out_reservation does at a check-out before the end, less what a stay that ran its course needs:
    -- its dates stay as booked, and its keys expire (they were not taken away).
    update check_ins set checked_out_at = coalesce(checked_out_at, least(now(), v_res.ends_at))
     where tenant_id = p_tenant_id and reservation_id = v_res.id
    returning * into v_check_in;
    update reservations set status = 'checked_out' where tenant_id = p_tenant_id and id = v_res.id;
    v_expired := '{}';
    for v_key in select id from access_keys
      where tenant_id = p_tenant_id and reservation_id = v_res.id and status in ('pre_issued', 'active') and kind <> 'backup'
      order by created_at
    loop
      if (select id from app_end_key(p_tenant_id, v_key, 'expired', 'stay_ended', 'system', null, 'automatic check-out')) is not null then
        v_expired := v_expired || v_key;
      end if;
    end loop;
    perform app_audit(p_tenant_id, 'system', null, 'automatic check-out', 'checkout.completed', 'reservation', v_res.id,
                      v_res.room_id, 'stay_ended',
                      jsonb_build_object('checkInId', v_check_in.id, 'expiredKeyIds', to_jsonb(v_expired), 'automatic', true));
    n := n + 1;
  end loop;
  return n;
end $function$;
