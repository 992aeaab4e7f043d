-- Re-encrypts every guest register row on an older data key version with the key of p_new_version; returns how many rows per tenant.
CREATE OR REPLACE FUNCTION public.app_registration_rotate(p_keys jsonb, p_new_version integer)
 RETURNS TABLE(tenant_id uuid, rows_rotated integer)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v record;
  v_new_key text := p_keys ->> p_new_version::text;
  v_old_key text;
  v_counts jsonb := '{}';
begin
  if v_new_key is null or length(v_new_key) < 16 then
    raise exception 'the data key is missing or too short' using errcode = 'US001';
  end if;
  for v in select g.tenant_id, g.id, g.key_version, g.passport_number, g.passport_image from public.guest_registrations g
            where g.key_version < p_new_version
              and (app_current_tenant() is null or g.tenant_id = app_current_tenant())
            order by g.tenant_id, g.id for update loop
    v_old_key := p_keys ->> v.key_version::text;
    if v_old_key is null then
      raise exception 'no data key for key version % (set APP_DATA_KEYS); nothing was changed', v.key_version using errcode = 'US004';
    end if;
    begin
      update public.guest_registrations g
         set passport_number = case when v.passport_number is null then null
                                    else pgp_sym_encrypt(pgp_sym_decrypt(v.passport_number, v_old_key), v_new_key, 'cipher-algo=aes256') end,
             passport_image = case when v.passport_image is null then null
                                   else pgp_sym_encrypt_bytea(pgp_sym_decrypt_bytea(v.passport_image, v_old_key), v_new_key, 'cipher-algo=aes256') end,
             key_version = p_new_version
       where g.tenant_id = v.tenant_id and g.id = v.id;
    exception when others then
      raise exception 'a guest register row on key version % cannot be decrypted with that version''s data key; nothing was changed', v.key_version using errcode = 'US003';
    end;
    v_counts := jsonb_set(v_counts, array[v.tenant_id::text],
                          to_jsonb(coalesce((v_counts ->> v.tenant_id::text)::integer, 0) + 1));
  end loop;
  return query select c.key::uuid, c.value::integer from jsonb_each_text(v_counts) c order by 1;
end $function$;
revoke all on function public.app_registration_rotate(jsonb, integer) from public;
grant execute on function public.app_registration_rotate(jsonb, integer) to app_service;
