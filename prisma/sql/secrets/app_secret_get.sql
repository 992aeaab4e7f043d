-- Decrypts a tenant's provider secret with the key of its own version (null when there is none).
CREATE OR REPLACE FUNCTION public.app_secret_get(p_tenant_id uuid, p_provider secret_provider, p_keys jsonb)
 RETURNS text
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_cipher bytea;
  v_version integer;
  v_key text;
begin
  perform app_secret_assert_scope(p_tenant_id);
  select ciphertext, key_version into v_cipher, v_version from public.provider_secrets where tenant_id = p_tenant_id and provider = p_provider;
  if not found then
    return null;
  end if;
  v_key := p_keys ->> v_version::text;
  if v_key is null then
    raise exception 'no data key for key version % (set APP_DATA_KEYS)', v_version using errcode = 'US004';
  end if;
  begin
    return pgp_sym_decrypt(v_cipher, v_key);
  exception when others then
    raise exception 'the secret cannot be decrypted with the data key of version %', v_version using errcode = 'US003';
  end;
end $function$;
