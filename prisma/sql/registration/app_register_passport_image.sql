-- One register row's passport image, decrypted, for a manager (or the tenant's API key); audited `registration.viewed` in the same transaction.
CREATE OR REPLACE FUNCTION public.app_register_passport_image(p_tenant_id uuid, p_registration uuid, p_keys jsonb)
 RETURNS TABLE(image bytea, image_type text)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v record;
  v_reader record;
begin
  select * into strict v_reader from app_register_reader(p_tenant_id);
  select g.reservation_id, g.position, g.passport_image, g.passport_image_type, g.key_version, r.room_id into v
    from guest_registrations g join reservations r on r.tenant_id = g.tenant_id and r.id = g.reservation_id
   where g.tenant_id = p_tenant_id and g.id = p_registration and g.passport_image is not null;
  if not found then
    raise exception 'no such passport image' using errcode = 'UN404';
  end if;
  if p_keys ->> v.key_version::text is null then
    raise exception 'no data key for key version % (set APP_DATA_KEYS)', v.key_version using errcode = 'US004';
  end if;
  perform app_audit(p_tenant_id, v_reader.reader_type, v_reader.reader_id, v_reader.reader_label,
                    'registration.viewed', 'reservation', v.reservation_id, v.room_id, null,
                    jsonb_build_object('registrationId', p_registration, 'guest', v.position, 'passportImage', true));
  image := pgp_sym_decrypt_bytea(v.passport_image, p_keys ->> v.key_version::text);
  image_type := v.passport_image_type;
  return next;
end $function$;
revoke all on function public.app_register_passport_image(uuid, uuid, jsonb) from public;
grant execute on function public.app_register_passport_image(uuid, uuid, jsonb) to app_authenticated;
