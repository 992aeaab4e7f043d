-- Erases a tenant's guest registers whose retention has ended; returns how many stays' registers went, each audited `registration.erased`.
CREATE OR REPLACE FUNCTION public.app_registration_sweep(p_tenant_id uuid)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v record;
  v_stays integer := 0;
begin
  perform app_register_assert_scope(p_tenant_id, null);
  for v in with gone as (
             delete from guest_registrations g where g.tenant_id = p_tenant_id and g.retain_until <= now()
             returning g.reservation_id, g.retain_until)
           select gone.reservation_id, max(gone.retain_until) as retain_until, count(*)::integer as guests
             from gone group by gone.reservation_id loop
    v_stays := v_stays + 1;
    perform app_audit(p_tenant_id, 'system', null, 'system', 'registration.erased', 'reservation', v.reservation_id,
                      null, 'retention_ended',
                      jsonb_build_object('guests', v.guests, 'retainedUntil', v.retain_until));
  end loop;
  return v_stays;
end $function$;
revoke all on function public.app_registration_sweep(uuid) from public;
grant execute on function public.app_registration_sweep(uuid) to app_service;
