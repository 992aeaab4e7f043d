-- Trigger: web processes cache each tenant's verification secrets (lib/webhooks/verification-secrets.ts); any change
-- of a tenant's secrets is announced so every process drops its copy at once.
CREATE OR REPLACE FUNCTION public.app_notify_secret_change()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  perform pg_notify('unlockos_provider_secrets', coalesce(new.tenant_id, old.tenant_id)::text);
  return null;
end $function$;
