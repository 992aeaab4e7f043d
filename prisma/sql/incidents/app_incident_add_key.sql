-- One incident per condition (a lock and a kind of failure), listing the keys it affects: adding a key counts one
-- more occurrence; clearing the last key resolves it.
CREATE OR REPLACE FUNCTION public.app_incident_add_key(p_tenant_id uuid, p_condition_key text, p_kind text, p_severity text, p_summary text, p_key_id uuid, p_detail jsonb DEFAULT '{}'::jsonb)
 RETURNS void
 LANGUAGE sql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
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
$function$;
