-- The reservation row, locked, or UN404; refuses a stay that cannot change any more (UR001).
CREATE OR REPLACE FUNCTION public.app_lock_live_stay(p_tenant_id uuid, p_reservation_id uuid, p_change text)
 RETURNS reservations
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_res reservations;
begin
  select * into v_res from reservations where tenant_id = p_tenant_id and id = p_reservation_id for update;
  if not found then
    raise exception 'reservation % not found', p_reservation_id using errcode = 'UN404';
  end if;
  if v_res.status in ('cancelled', 'checked_out') then
    raise exception 'A % stay cannot be %.', replace(v_res.status::text, '_', ' '), p_change
      using errcode = 'UR001', detail = format('from=%s to=%s', v_res.status, p_change);
  end if;
  return v_res;
end $function$;
