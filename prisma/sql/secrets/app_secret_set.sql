-- Stores a tenant's provider secret, encrypted with the given data key version.
CREATE OR REPLACE FUNCTION public.app_secret_set(p_tenant_id uuid, p_provider secret_provider, p_value text, p_key text, p_key_version integer)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  perform app_secret_assert_scope(p_tenant_id);
  if p_key is null or length(p_key) < 16 then
    raise exception 'the data key is missing or too short' using errcode = 'US001';
  end if;
  if p_value is null or length(p_value) = 0 or length(p_value) > 4096 then
    raise exception 'the secret must be 1 to 4096 characters' using errcode = 'US002';
  end if;
  insert into public.provider_secrets as s (tenant_id, provider, ciphertext, key_version, rotated_at)
  values (p_tenant_id, p_provider, pgp_sym_encrypt(p_value, p_key, 'cipher-algo=aes256'), p_key_version, now())
  on conflict (tenant_id, provider) do update
    set ciphertext = excluded.ciphertext, key_version = excluded.key_version, rotated_at = now();
  return p_key_version;
end $function$;
