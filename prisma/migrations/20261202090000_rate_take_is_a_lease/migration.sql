-- One token bucket, refilled one way: app_rate_take (one token, for sign-in and the routes' limits)
-- is now a lease of one token (app_rate_lease, the API's hot path). The two had repeated the same
-- refill, the same "refusals spend nothing" and the same retry_after arithmetic. Same signature,
-- same grants, same answers (lib/ratelimit tests, unchanged, hold them); one difference: a capacity
-- or rate that is not above zero is refused (22023) instead of making a bucket that never grants.
create or replace function app_rate_take(p_bucket text, p_capacity integer, p_per_second double precision)
  returns table (allowed boolean, retry_after integer)
  language sql volatile
  security definer
  set search_path = pg_catalog, public
as $$
  select lease.granted = 1, lease.retry_after from public.app_rate_lease(p_bucket, p_capacity, p_per_second, 1) as lease
$$;
