-- Lock sync that never claims more than a lock confirmed, and incidents that do not flood
-- (issue 12, items 11 and 20).

-- 1. Where a key's code was sent: removal goes to that lock even if the room's device changes later,
--    and a key that was never sent to any lock has nothing to remove.
alter table access_keys add column lock_device_ref text;

-- 2. Incidents about the whole install (a worker or the lock provider down) have no tenant: every
--    tenant's staff read them; only the service role writes them. One open incident per condition.
alter table incidents alter column tenant_id drop not null;
create unique index incidents_one_open_platform_condition on incidents (condition_key) where tenant_id is null and resolved_at is null;
drop policy tenant_isolation on incidents;
create policy tenant_isolation on incidents to app_authenticated
  using (tenant_id = app_current_tenant() or tenant_id is null)
  with check (tenant_id = app_current_tenant());

-- 3. One incident per condition (a lock and a kind of failure), listing the keys it affects:
--    adding a key counts one more occurrence; clearing the last key resolves it.
create function app_incident_add_key(p_tenant_id uuid, p_condition_key text, p_kind text, p_severity text, p_summary text,
                                     p_key_id uuid, p_detail jsonb default '{}')
  returns void
  language sql volatile
  set search_path = pg_catalog, public
as $$
  insert into incidents as i (tenant_id, condition_key, kind, severity, summary, detail)
  values (p_tenant_id, p_condition_key, p_kind, p_severity, p_summary,
          coalesce(p_detail, '{}') || jsonb_build_object('keyIds', jsonb_build_array(p_key_id), 'affectedKeys', 1))
  on conflict (tenant_id, condition_key) where resolved_at is null do update set
    occurrences = i.occurrences + 1,
    updated_at = now(),
    severity = excluded.severity,
    summary = excluded.summary,
    detail = i.detail || coalesce(p_detail, '{}') || (
      select jsonb_build_object('keyIds', coalesce(jsonb_agg(distinct k), '[]'), 'affectedKeys', count(distinct k))
        from jsonb_array_elements_text(coalesce(i.detail->'keyIds', '[]') || jsonb_build_array(p_key_id)) k)
$$;
grant execute on function app_incident_add_key(uuid, text, text, text, text, uuid, jsonb) to app_service;

create function app_incident_clear_key(p_tenant_id uuid, p_condition_keys text[], p_key_id uuid)
  returns void
  language sql volatile
  set search_path = pg_catalog, public
as $$
  update incidents i set
    detail = i.detail || rest.detail,
    resolved_at = case when (rest.detail->>'affectedKeys')::int = 0 then now() end,
    updated_at = now()
  from (
    select o.id, (select jsonb_build_object('keyIds', coalesce(jsonb_agg(k), '[]'), 'affectedKeys', count(k))
                    from jsonb_array_elements_text(coalesce(o.detail->'keyIds', '[]')) k where k <> p_key_id::text) as detail
      from incidents o
     where o.tenant_id = p_tenant_id and o.condition_key = any(p_condition_keys) and o.resolved_at is null
       and coalesce(o.detail->'keyIds', '[]') ? p_key_id::text
     for update
  ) rest
  where i.id = rest.id
$$;
grant execute on function app_incident_clear_key(uuid, text[], uuid) to app_service;
