-- A facility's register for the stays arriving in [p_from, p_to), decrypted, for a manager (or the tenant's API key); audited as viewed or exported.
CREATE OR REPLACE FUNCTION public.app_register_rows(p_tenant_id uuid, p_facility uuid, p_from timestamptz, p_to timestamptz, p_keys jsonb, p_purpose text)
 RETURNS TABLE(reservation_id uuid, room_label text, starts_at timestamptz, ends_at timestamptz, status text, registration_id uuid, guest_position integer, name text, address text, address_in_japan boolean, nationality text, occupation text, passport_number text, has_passport_image boolean, retain_until timestamptz, complete boolean)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_stays integer;
  v_reader record;
begin
  select * into strict v_reader from app_register_reader(p_tenant_id);
  if p_purpose not in ('viewed', 'exported') then
    raise exception 'purpose must be viewed or exported' using errcode = '22023';
  end if;
  return query
    select r.id, r.room_label_snapshot, r.starts_at, r.ends_at, r.status::text, g.id, g.position, g.name, g.address,
           g.address_in_japan, g.nationality, g.occupation,
           case when g.passport_number is null then null
                else pgp_sym_decrypt(g.passport_number, coalesce(p_keys ->> g.key_version::text, '')) end,
           g.passport_image is not null, g.retain_until,
           app_registration_complete(r.tenant_id, r.id)
      from reservations r
      join rooms ro on ro.tenant_id = r.tenant_id and ro.id = r.room_id
      left join guest_registrations g on g.tenant_id = r.tenant_id and g.reservation_id = r.id
     where r.tenant_id = p_tenant_id and ro.facility_id = p_facility
       and r.starts_at >= p_from and r.starts_at < p_to and r.status <> 'cancelled'
     order by r.starts_at, r.room_label_snapshot, r.id, g.position;
  select count(*) into v_stays from reservations r join rooms ro on ro.tenant_id = r.tenant_id and ro.id = r.room_id
   where r.tenant_id = p_tenant_id and ro.facility_id = p_facility
     and r.starts_at >= p_from and r.starts_at < p_to and r.status <> 'cancelled';
  perform app_audit(p_tenant_id, v_reader.reader_type, v_reader.reader_id, v_reader.reader_label,
                    'registration.' || p_purpose, 'facility', p_facility, null, null,
                    jsonb_build_object('from', p_from, 'to', p_to, 'stays', v_stays));
end $function$;
revoke all on function public.app_register_rows(uuid, uuid, timestamptz, timestamptz, jsonb, text) from public;
grant execute on function public.app_register_rows(uuid, uuid, timestamptz, timestamptz, jsonb, text) to app_authenticated;
