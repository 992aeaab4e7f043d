-- Takes a key off the incidents of its conditions; an incident with no key left is resolved.
CREATE OR REPLACE FUNCTION public.app_incident_clear_key(p_tenant_id uuid, p_condition_keys text[], p_key_id uuid)
 RETURNS void
 LANGUAGE sql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
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
$function$;
