-- Re-encrypts every provider secret with the data key of p_new_version.
CREATE OR REPLACE FUNCTION public.app_secret_rotate(p_keys jsonb, p_new_version integer)
 RETURNS TABLE(tenant_id uuid, provider secret_provider, old_version integer)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v record;
  v_plain text;
  v_new_key text := p_keys ->> p_new_version::text;
  v_old_key text;
begin
  if v_new_key is null or length(v_new_key) < 16 then
    raise exception 'the data key is missing or too short' using errcode = 'US001';
  end if;
  for v in select s.id, s.tenant_id, s.provider, s.ciphertext, s.key_version from public.provider_secrets s
            where s.key_version < p_new_version
              and (app_current_tenant() is null or s.tenant_id = app_current_tenant())
            order by s.tenant_id, s.provider for update loop
    v_old_key := p_keys ->> v.key_version::text;
    if v_old_key is null then
      raise exception 'no data key for key version % (set APP_DATA_KEYS); nothing was changed', v.key_version using errcode = 'US004';
    end if;
    begin
      v_plain := pgp_sym_decrypt(v.ciphertext, v_old_key);
    exception when others then
      raise exception 'a secret on key version % cannot be decrypted with that version''s data key; nothing was changed', v.key_version using errcode = 'US003';
    end;
    update public.provider_secrets set ciphertext = pgp_sym_encrypt(v_plain, v_new_key, 'cipher-algo=aes256'),
           key_version = p_new_version, rotated_at = now()
     where id = v.id;
    tenant_id := v.tenant_id;
    provider := v.provider;
    old_version := v.key_version;
    return next;
  end loop;
end $function$;
