-- One stay's guest register, its passport numbers decrypted (images only named), for a manager or the tenant's API key; audited `registration.viewed` in the same transaction. One row per guest, or one row without a guest when there is none.
CREATE OR REPLACE FUNCTION public.app_register_stay(p_tenant_id uuid, p_reservation uuid, p_keys jsonb)
 RETURNS TABLE(reservation_id uuid, registration text, complete boolean, registration_id uuid, guest_position integer, name text, address text, address_in_japan boolean, nationality text, occupation text, passport_number text, passport_image_type text, retain_until timestamptz)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_reader record;
  v_stay record;
  v_guests integer;
begin
  select * into strict v_reader from app_register_reader(p_tenant_id);
  select r.id, r.room_id, f.registration::text as mode into v_stay
    from reservations r
    join rooms ro on ro.tenant_id = r.tenant_id and ro.id = r.room_id
    join facilities f on f.tenant_id = ro.tenant_id and f.id = ro.facility_id
   where r.tenant_id = p_tenant_id and r.id = p_reservation;
  if not found then
    raise exception 'no such reservation' using errcode = 'UN404';
  end if;
  return query
    select v_stay.id, v_stay.mode, app_registration_complete(p_tenant_id, p_reservation), g.id, g.position, g.name,
           g.address, g.address_in_japan, g.nationality, g.occupation,
           case when g.passport_number is null then null
                else pgp_sym_decrypt(g.passport_number, coalesce(p_keys ->> g.key_version::text, '')) end,
           g.passport_image_type, g.retain_until
      from (select 1) as one
      left join guest_registrations g on g.tenant_id = p_tenant_id and g.reservation_id = p_reservation
     order by g.position;
  select count(*) into v_guests from guest_registrations g
   where g.tenant_id = p_tenant_id and g.reservation_id = p_reservation;
  perform app_audit(p_tenant_id, v_reader.reader_type, v_reader.reader_id, v_reader.reader_label,
                    'registration.viewed', 'reservation', p_reservation, v_stay.room_id, null,
                    jsonb_build_object('guests', v_guests));
end $function$;
revoke all on function public.app_register_stay(uuid, uuid, jsonb) from public;
grant execute on function public.app_register_stay(uuid, uuid, jsonb) to app_authenticated;
