-- The worker's job-queue connection logs in as app_queue, not as the database owner: it may use
-- graphile-worker's schema and nothing of the application's (no usage on schema public, no role to
-- SET ROLE to). Its password is set by the launcher after migrating, like app_login's.
do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'app_queue') then
    create role app_queue login noinherit;
  end if;
end $$;

-- graphile-worker's schema is created by its own migrations, which run after ours (and a later
-- version may add tables): the launcher calls this after them, on every start. graphile-worker
-- enables row-level security without policies on its private tables, so that nobody but their
-- owner reads them; app_queue gets a policy of its own on each (no BYPASSRLS, which would need a
-- superuser and reach further than this schema).
create function app_grant_queue_role()
  returns void
  language plpgsql
  set search_path = pg_catalog
as $$
declare
  v_table regclass;
begin
  if to_regnamespace('graphile_worker') is null then
    return;
  end if;
  grant usage on schema graphile_worker to app_queue;
  grant select, insert, update, delete on all tables in schema graphile_worker to app_queue;
  grant usage, select, update on all sequences in schema graphile_worker to app_queue;
  grant execute on all routines in schema graphile_worker to app_queue;
  for v_table in
    select c.oid::regclass from pg_class c
     where c.relnamespace = 'graphile_worker'::regnamespace and c.relkind = 'r' and c.relrowsecurity
       and not exists (select 1 from pg_policy p where p.polrelid = c.oid and p.polname = 'app_queue_all')
  loop
    execute format('create policy app_queue_all on %s for all to app_queue using (true) with check (true)', v_table);
  end loop;
end $$;
revoke all on function app_grant_queue_role() from public;
