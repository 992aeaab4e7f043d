-- Webhook tenancy and the secret keyring (issue 12, items 1, 2, 3 and 18).

-- 1. Duplicates are judged within the tenant for providers that sign per tenant (Calendly, Cal.com):
--    an event signed with one tenant's secret must never suppress, change or reveal another's.
--    Stripe signs for the whole platform; its event ids are globally unique and stay deduplicated
--    across tenants (a Stripe row may not know its tenant when it is stored).
alter table webhook_events drop constraint webhook_events_provider_dedupe_key_key;
create unique index webhook_events_dedupe_per_tenant on webhook_events (tenant_id, provider, dedupe_key) where provider <> 'stripe';
create unique index webhook_events_dedupe_stripe on webhook_events (provider, dedupe_key) where provider = 'stripe';
alter table webhook_events add constraint webhook_events_signed_per_tenant check (provider = 'stripe' or tenant_id is not null);

create or replace function app_webhook_store(p_provider webhook_provider, p_dedupe_key text, p_type text, p_payload jsonb,
                                             p_provider_created_at timestamptz, p_tenant_id uuid, p_stripe_account text)
  returns table (id uuid, duplicate boolean)
  language plpgsql volatile
  set search_path = pg_catalog, public
as $$
declare
  v_tenant uuid := p_tenant_id;
  v_id uuid;
begin
  if v_tenant is null and p_stripe_account is not null then
    select t.id into v_tenant from tenants t where t.stripe_account_id = p_stripe_account;
  end if;
  -- No conflict target: the partial unique index that applies to this provider decides.
  insert into webhook_events (tenant_id, provider, dedupe_key, type, payload, provider_created_at)
  values (v_tenant, p_provider, p_dedupe_key, p_type, p_payload, p_provider_created_at)
  on conflict do nothing
  returning webhook_events.id into v_id;
  id := v_id;
  duplicate := v_id is null;
  return next;
end $$;

-- 2. Secrets decrypt with the key of their own version (a keyring passed as {"<version>": "<key>"}),
--    so changing APP_DATA_KEY does not break every webhook until rotation, and rotation moves rows
--    of any older version. Inside a transaction scoped to a tenant, the functions refuse any other
--    tenant (42501).
create function app_secret_assert_scope(p_tenant_id uuid) returns void
  language plpgsql stable
  set search_path = pg_catalog, public
as $$
begin
  if app_current_tenant() is not null and p_tenant_id is distinct from app_current_tenant() then
    raise exception 'this transaction is scoped to another tenant' using errcode = '42501';
  end if;
end $$;

create or replace function app_secret_set(p_tenant_id uuid, p_provider secret_provider, p_value text, p_key text, p_key_version integer)
  returns integer
  language plpgsql volatile
  security definer
  set search_path = pg_catalog, public
as $$
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
end $$;

drop function app_secret_get(uuid, secret_provider, text);
create function app_secret_get(p_tenant_id uuid, p_provider secret_provider, p_keys jsonb)
  returns text
  language plpgsql stable
  security definer
  set search_path = pg_catalog, public
as $$
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
end $$;

drop function app_secret_rotate(text, text, integer);
create function app_secret_rotate(p_keys jsonb, p_new_version integer)
  returns table (tenant_id uuid, provider secret_provider, old_version integer)
  language plpgsql volatile
  security definer
  set search_path = pg_catalog, public
as $$
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
end $$;

revoke all on function app_secret_get(uuid, secret_provider, jsonb) from public;
revoke all on function app_secret_rotate(jsonb, integer) from public;
grant execute on function app_secret_get(uuid, secret_provider, jsonb) to app_service;
grant execute on function app_secret_rotate(jsonb, integer) to app_service;

-- 3. Web processes cache each tenant's verification secrets (lib/webhooks/verification-secrets.ts);
--    any change of a tenant's secrets is announced so every process drops its copy at once.
create function app_notify_secret_change() returns trigger
  language plpgsql
  set search_path = pg_catalog, public
as $$
begin
  perform pg_notify('unlockos_provider_secrets', coalesce(new.tenant_id, old.tenant_id)::text);
  return null;
end $$;
create trigger provider_secrets_notify after insert or update or delete on provider_secrets
  for each row execute function app_notify_secret_change();
