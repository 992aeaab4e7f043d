-- Replaces a live stay's guest register with p_guests (1–10), the passport fields encrypted with the given data key; returns whether it is complete.
CREATE OR REPLACE FUNCTION public.app_registration_replace(p_tenant_id uuid, p_reservation uuid, p_guests jsonb, p_key text, p_key_version integer)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_mode registration_mode;
  v_room uuid;
  v_guest jsonb;
  v_position integer := 0;
  v_image bytea;
  v_type text;
  v_number text;
  v_complete boolean;
begin
  perform app_register_assert_scope(p_tenant_id, p_reservation);
  if p_key is null or length(p_key) < 16 then
    raise exception 'the data key is missing or too short' using errcode = 'US001';
  end if;
  -- One writer per stay at a time: two phones sending at once replace the register one after the other.
  select f.registration, r.room_id into v_mode, v_room
    from reservations r
    join rooms ro on ro.tenant_id = r.tenant_id and ro.id = r.room_id
    join facilities f on f.tenant_id = ro.tenant_id and f.id = ro.facility_id
   where r.tenant_id = p_tenant_id and r.id = p_reservation
     and r.status in ('held', 'confirmed', 'checked_in') and r.ends_at > now()
     for update of r;
  if not found then
    raise exception 'this stay takes no guest register now' using errcode = 'UG002';
  end if;
  if v_mode <> 'jp' then
    raise exception 'this facility keeps no guest register' using errcode = 'UG002';
  end if;
  if jsonb_typeof(p_guests) is distinct from 'array' or jsonb_array_length(p_guests) not between 1 and 10 then
    raise exception 'a register lists 1 to 10 guests' using errcode = 'UG001';
  end if;
  delete from guest_registrations where tenant_id = p_tenant_id and reservation_id = p_reservation;
  for v_guest in select value from jsonb_array_elements(p_guests) loop
    v_position := v_position + 1;
    v_image := case when v_guest ? 'passportImage' and jsonb_typeof(v_guest -> 'passportImage') = 'string'
                    then decode(v_guest ->> 'passportImage', 'base64') end;
    v_number := nullif(btrim(coalesce(v_guest ->> 'passportNumber', '')), '');
    -- The image's type is what its bytes are, whatever its sender called it.
    v_type := case when v_image is null then null
                   when substring(v_image from 1 for 3) = '\xffd8ff'::bytea then 'image/jpeg'
                   when substring(v_image from 1 for 8) = '\x89504e470d0a1a0a'::bytea then 'image/png' end;
    if v_image is not null and (v_type is null or length(v_image) > 5 * 1024 * 1024) then
      raise exception 'guest % passport image must be a JPEG or PNG of at most 5 MB', v_position using errcode = 'UG001';
    end if;
    if v_number is not null and length(v_number) > 40 then
      raise exception 'guest % passport number is too long', v_position using errcode = 'UG001';
    end if;
    insert into guest_registrations (tenant_id, reservation_id, position, name, address, address_in_japan, nationality,
                                     occupation, passport_number, passport_image, passport_image_type, key_version, retain_until)
    values (p_tenant_id, p_reservation, v_position, btrim(v_guest ->> 'name'), btrim(v_guest ->> 'address'),
            coalesce((v_guest ->> 'addressInJapan')::boolean, false), v_guest ->> 'nationality',
            nullif(btrim(coalesce(v_guest ->> 'occupation', '')), ''),
            case when v_number is not null then pgp_sym_encrypt(v_number, p_key, 'cipher-algo=aes256') end,
            case when v_image is not null then pgp_sym_encrypt_bytea(v_image, p_key, 'cipher-algo=aes256') end,
            v_type,
            case when v_number is not null or v_image is not null then p_key_version end,
            'infinity');
  end loop;
  v_complete := app_registration_complete(p_tenant_id, p_reservation);
  -- No personal data in the audit: how many guests, how many with a passport, and whether it is complete.
  perform app_audit(p_tenant_id, 'guest', p_reservation::text, 'guest link', 'registration.recorded', 'reservation',
                    p_reservation, v_room, null,
                    jsonb_build_object('guests', v_position, 'complete', v_complete,
                      'passports', (select count(*) from guest_registrations g where g.tenant_id = p_tenant_id
                                       and g.reservation_id = p_reservation and g.passport_image is not null)));
  return v_complete;
exception
  when check_violation or not_null_violation or invalid_text_representation or invalid_parameter_value then
    raise exception 'the register is not valid as written' using errcode = 'UG001';
end $function$;
revoke all on function public.app_registration_replace(uuid, uuid, jsonb, text, integer) from public;
grant execute on function public.app_registration_replace(uuid, uuid, jsonb, text, integer) to app_service;
