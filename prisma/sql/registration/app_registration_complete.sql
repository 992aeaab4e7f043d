-- Whether a stay's guest register is complete: always for a facility that keeps none, for `jp` when it has a guest and every guest is complete.
CREATE OR REPLACE FUNCTION public.app_registration_complete(p_tenant uuid, p_reservation uuid)
 RETURNS boolean
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_mode registration_mode;
begin
  perform app_register_assert_scope(p_tenant, p_reservation);
  select f.registration into v_mode
    from reservations r
    join rooms ro on ro.tenant_id = r.tenant_id and ro.id = r.room_id
    join facilities f on f.tenant_id = ro.tenant_id and f.id = ro.facility_id
   where r.tenant_id = p_tenant and r.id = p_reservation;
  if not found then
    return false;
  end if;
  if v_mode = 'none' then
    return true;
  end if;
  -- The register as submitted is the stay's guests (reservations carry no guest count): at least one, each
  -- complete — a foreign guest without an address in Japan with the passport's number and image.
  return exists (select 1 from guest_registrations g where g.tenant_id = p_tenant and g.reservation_id = p_reservation)
     and not exists (select 1 from guest_registrations g
                      where g.tenant_id = p_tenant and g.reservation_id = p_reservation
                        and not (g.nationality = 'JP' or g.address_in_japan
                                 or (g.passport_number is not null and g.passport_image is not null)));
end $function$;
revoke all on function public.app_registration_complete(uuid, uuid) from public;
grant execute on function public.app_registration_complete(uuid, uuid) to app_anon, app_authenticated, app_service;
