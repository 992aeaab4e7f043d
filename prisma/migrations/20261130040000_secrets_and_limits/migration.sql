-- Provider secrets behind security-definer functions, and token-bucket rate limits.

-- 1. Provider secrets: ciphertext only (pgp_sym_encrypt), the key passed by the server on every call,
--    never stored. The application roles cannot read the table's ciphertext at all; staff see which
--    providers have a secret, its key version and rotation date.
revoke all on provider_secrets from app_service, app_authenticated, app_anon;
grant select (tenant_id, id, provider, key_version, rotated_at, created_at) on provider_secrets to app_authenticated;
create policy tenant_isolation on provider_secrets to app_authenticated using (tenant_id = app_current_tenant());

-- The functions below run as the owner of this migration; under FORCE ROW LEVEL SECURITY the owner
-- needs a policy of its own (a superuser owner bypasses RLS anyway).
do $$
begin
  execute format('create policy definer_functions on provider_secrets to %I using (true) with check (true)', current_user);
end $$;

create function app_secret_set(p_tenant_id uuid, p_provider secret_provider, p_value text, p_key text, p_key_version integer)
  returns integer
  language plpgsql volatile
  security definer
  set search_path = pg_catalog, public
as $$
begin
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
end $$;

create function app_secret_get(p_tenant_id uuid, p_provider secret_provider, p_key text)
  returns text
  language plpgsql stable
  security definer
  set search_path = pg_catalog, public
as $$
declare
  v_cipher bytea;
begin
  select ciphertext into v_cipher from public.provider_secrets where tenant_id = p_tenant_id and provider = p_provider;
  if not found then
    return null;
  end if;
  begin
    return pgp_sym_decrypt(v_cipher, p_key);
  exception when others then
    raise exception 'the secret cannot be decrypted with this data key' using errcode = 'US003';
  end;
end $$;

-- Re-encrypts every secret on an older key version than the current one: decrypts with the previous key (a
-- wrong key fails closed, nothing changes), encrypts with the current one.
create function app_secret_rotate(p_old_key text, p_new_key text, p_new_version integer)
  returns table (tenant_id uuid, provider secret_provider, old_version integer)
  language plpgsql volatile
  security definer
  set search_path = pg_catalog, public
as $$
declare
  v record;
  v_plain text;
begin
  if p_new_key is null or length(p_new_key) < 16 then
    raise exception 'the data key is missing or too short' using errcode = 'US001';
  end if;
  for v in select s.id, s.tenant_id, s.provider, s.ciphertext, s.key_version from public.provider_secrets s
            where s.key_version < p_new_version order by s.tenant_id, s.provider for update loop
    begin
      v_plain := pgp_sym_decrypt(v.ciphertext, p_old_key);
    exception when others then
      raise exception 'a secret on key version % cannot be decrypted with the previous data key', v.key_version using errcode = 'US003';
    end;
    update public.provider_secrets set ciphertext = pgp_sym_encrypt(v_plain, p_new_key, 'cipher-algo=aes256'),
           key_version = p_new_version, rotated_at = now()
     where id = v.id;
    tenant_id := v.tenant_id;
    provider := v.provider;
    old_version := v.key_version;
    return next;
  end loop;
end $$;

revoke all on function app_secret_set(uuid, secret_provider, text, text, integer) from public;
revoke all on function app_secret_get(uuid, secret_provider, text) from public;
revoke all on function app_secret_rotate(text, text, integer) from public;
grant execute on function app_secret_set(uuid, secret_provider, text, text, integer) to app_service;
grant execute on function app_secret_get(uuid, secret_provider, text) to app_service;
grant execute on function app_secret_rotate(text, text, integer) to app_service;

-- 2. Token buckets, for limits that allow bursts (the API: bursts of 300, 100 a second sustained).
create table rate_buckets (
  bucket text primary key,
  tokens double precision not null,
  updated_at timestamptz not null
);
grant select, delete on rate_buckets to app_service;

create function app_rate_take(p_bucket text, p_capacity integer, p_per_second double precision)
  returns table (allowed boolean, retry_after integer)
  language plpgsql volatile
  security definer
  set search_path = pg_catalog, public
as $$
declare
  v_tokens double precision;
begin
  insert into public.rate_buckets as b (bucket, tokens, updated_at) values (p_bucket, p_capacity - 1, clock_timestamp())
  on conflict (bucket) do update
    set tokens = least(p_capacity::double precision,
                       b.tokens + extract(epoch from (clock_timestamp() - b.updated_at)) * p_per_second) - 1,
        updated_at = clock_timestamp()
  returning b.tokens into v_tokens;
  if v_tokens < 0 then
    -- Refused requests do not spend tokens.
    update public.rate_buckets set tokens = v_tokens + 1 where bucket = p_bucket;
    allowed := false;
    retry_after := greatest(1, ceil((-v_tokens) / p_per_second)::integer);
  else
    allowed := true;
    retry_after := 0;
  end if;
  return next;
end $$;
revoke all on function app_rate_take(text, integer, double precision) from public;
grant execute on function app_rate_take(text, integer, double precision) to app_anon, app_authenticated, app_service;
