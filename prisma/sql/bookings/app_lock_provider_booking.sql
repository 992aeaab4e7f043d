-- Everything that happens to one provider booking (tenant + provider + external ref) runs under one transaction-
-- scoped lock: a create's checks and its write, and a cancellation, one at a time, so a cancel never lands between a
-- create's "not cancelled" and its insert.
CREATE OR REPLACE FUNCTION public.app_lock_provider_booking(p_tenant_id uuid, p_provider text, p_external_ref text)
 RETURNS void
 LANGUAGE sql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  select pg_advisory_xact_lock(hashtextextended(p_tenant_id::text || ':' || p_provider || ':' || p_external_ref, 3));
$function$;
