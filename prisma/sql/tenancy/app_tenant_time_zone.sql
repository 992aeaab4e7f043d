-- Billing failures are counted per day in the property's time zone (the tenant's first facility, UTC for a tenant
-- without one), not per UTC day.
CREATE OR REPLACE FUNCTION public.app_tenant_time_zone(p_tenant_id uuid)
 RETURNS text
 LANGUAGE sql
 STABLE
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  select coalesce((select f.time_zone from facilities f where f.tenant_id = p_tenant_id order by f.created_at, f.id limit 1), 'UTC')
$function$;
