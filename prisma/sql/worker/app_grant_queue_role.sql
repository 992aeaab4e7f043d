-- Gives the queue role its rights on graphile-worker's schema (the launcher calls it after the worker's migrations).
CREATE OR REPLACE FUNCTION public.app_grant_queue_role()
 RETURNS void
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog'
AS $function$
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
end $function$;
