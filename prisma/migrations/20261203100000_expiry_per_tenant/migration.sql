-- The expiry sweep works on one tenant at a time (issue 16, part 5: no function spans tenants).
--
-- expire_due_keys(p_limit) read every tenant's due keys `for update skip locked` in one statement. Under
-- Citus that is a multi-shard SELECT … FOR UPDATE, which Citus does not run (row locks need a router
-- query), so the sweep would have failed on the day the schema was distributed. Now the worker reads
-- which tenants have keys due (a plain multi-shard read, as check_locks does for locks) and calls
-- expire_due_keys(p_tenant_id, p_limit) for each: a function Citus can delegate to the tenant's shard.

drop function expire_due_keys(integer);

-- Each tenant's live keys by their end: the per-tenant sweep's scan (access_keys_expiry stays for the
-- read of which tenants have keys due).
create index access_keys_tenant_expiry on access_keys (tenant_id, expires_at) where status in ('pre_issued', 'active');

create function expire_due_keys(p_tenant_id uuid, p_limit integer default 500) returns integer
  language plpgsql volatile
  set search_path = pg_catalog, public
as $$
declare
  v record;
  n integer := 0;
begin
  for v in select id from access_keys
    where tenant_id = p_tenant_id and status in ('pre_issued', 'active') and expires_at <= now()
    order by expires_at limit p_limit for update skip locked
  loop
    perform app_end_key(p_tenant_id, v.id, 'expired', 'stay_ended', 'system', null, 'expiry');
    n := n + 1;
  end loop;
  return n;
end $$;
revoke all on function expire_due_keys(uuid, integer) from public;
grant execute on function expire_due_keys(uuid, integer) to app_service;
