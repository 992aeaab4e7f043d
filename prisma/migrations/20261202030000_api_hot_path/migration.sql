-- The API's hot path (issue 16, part 1): an authenticated call in as few round trips as possible.
--
-- 1. The one place a presented key's hash becomes a key (id, tenant, name). Web processes cache the
--    answer (a key's identity never changes); revocation is checked again inside every operation's
--    own transaction (2). When API-key hashes move to a lookup table, only this function changes.
--    The hash finds the tenant in the global lookup table (api_key_secrets, migration
--    20261202010000_citus_rules) and the key is read within that tenant.
create function app_api_key_by_hash(p_secret_hash bytea)
  returns table (api_key_id uuid, tenant_id uuid, name text)
  language sql stable
  set search_path = pg_catalog, public
as $$
  select k.id, k.tenant_id, k.name
    from public.api_key_secrets s
    join public.api_keys k on k.tenant_id = s.tenant_id and k.id = s.api_key_id
   where s.secret_hash = p_secret_hash and k.revoked_at is null
$$;
revoke all on function app_api_key_by_hash(bytea) from public;
grant execute on function app_api_key_by_hash(bytea) to app_service;

-- 2. Raises UN401 unless the key is unrevoked and of p_tenant_id, the transaction's tenant (app.tenant_id):
--    run as a statement of the operation's own transaction, right after the one that picks the role and
--    tenant, so a request whose transaction starts after a revocation committed is refused.
create function app_api_key_live(p_tenant_id uuid, p_api_key_id uuid)
  returns boolean
  language plpgsql stable
  set search_path = pg_catalog, public
as $$
begin
  perform 1 from public.api_keys k
   where k.tenant_id = p_tenant_id and k.id = p_api_key_id and k.revoked_at is null
     and p_tenant_id = public.app_current_tenant();
  if not found then
    raise exception 'api key revoked or unknown' using errcode = 'UN401';
  end if;
  return true;
end $$;
revoke all on function app_api_key_live(uuid, uuid) from public;
grant execute on function app_api_key_live(uuid, uuid) to app_authenticated, app_service;

-- 3. A lease of up to p_want tokens from a token bucket (the same buckets as app_rate_take: bursts up
--    to p_capacity, refilled at p_per_second). Grants what the bucket holds, whole tokens only, and
--    never more than p_want; a web process spends them locally. Nothing granted: retry_after seconds
--    until one token is there. The bucket stays the only truth across processes: a process can spend
--    no more than it was granted here.
create function app_rate_lease(p_bucket text, p_capacity integer, p_per_second double precision, p_want integer)
  returns table (granted integer, retry_after integer)
  language plpgsql volatile
  security definer
  set search_path = pg_catalog, public
as $$
declare
  v_tokens double precision;
begin
  if p_want < 1 or p_capacity < 1 or p_per_second <= 0 then
    raise exception 'app_rate_lease needs p_want, p_capacity and p_per_second above zero' using errcode = '22023';
  end if;
  insert into public.rate_buckets as b (bucket, tokens, updated_at) values (p_bucket, p_capacity, clock_timestamp())
  on conflict (bucket) do update
    set tokens = least(p_capacity::double precision,
                       b.tokens + extract(epoch from (clock_timestamp() - b.updated_at)) * p_per_second),
        updated_at = clock_timestamp()
  returning b.tokens into v_tokens;
  granted := least(p_want, greatest(0, floor(v_tokens)))::integer;
  if granted > 0 then
    update public.rate_buckets set tokens = v_tokens - granted where bucket = p_bucket;
    retry_after := 0;
  else
    retry_after := greatest(1, ceil((1 - v_tokens) / p_per_second)::integer);
  end if;
  return next;
end $$;
revoke all on function app_rate_lease(text, integer, double precision, integer) from public;
grant execute on function app_rate_lease(text, integer, double precision, integer) to app_service;
