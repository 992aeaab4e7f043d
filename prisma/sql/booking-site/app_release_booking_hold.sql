-- Releases a booking group's unpaid hold under the group's lock: its held stays are cancelled (the rooms free) when the
-- hold has ended, or at once when Stripe says its Checkout Session expired. Returns how many were released.
CREATE OR REPLACE FUNCTION public.app_release_booking_hold(p_tenant_id uuid, p_group_id uuid, p_reason text, p_now_anyway boolean)
 RETURNS integer
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_group booking_groups;
  v_res uuid;
  v_count integer := 0;
begin
  select * into v_group from booking_groups g where g.tenant_id = p_tenant_id and g.id = p_group_id for update;
  if not found or v_group.hold_expires_at is null then
    return 0;
  end if;
  if not p_now_anyway and v_group.hold_expires_at > now() then
    return 0;
  end if;
  for v_res in
    select r.id from reservations r
     where r.tenant_id = p_tenant_id and r.booking_group_id = p_group_id and r.status = 'held' order by r.id
  loop
    perform cancel_reservation(p_tenant_id, v_res, p_reason, p_reason, 'system', null, 'Payment');
    v_count := v_count + 1;
  end loop;
  return v_count;
end $function$;
