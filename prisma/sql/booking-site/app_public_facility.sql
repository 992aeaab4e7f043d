-- A published booking site's facility, found by its slug through facility_slugs before any tenant is known.
CREATE OR REPLACE FUNCTION public.app_public_facility(p_slug text)
 RETURNS TABLE(tenant_id uuid, facility_id uuid)
 LANGUAGE sql
 STABLE
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  select f.tenant_id, f.id
    from facility_slugs s
    join facilities f on f.tenant_id = s.tenant_id and f.id = s.facility_id
   where s.slug = p_slug and f.published_at is not null
$function$;
