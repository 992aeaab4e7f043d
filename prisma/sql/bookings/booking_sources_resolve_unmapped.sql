-- Trigger: a booking source added (or re-pointed) for a provider's event type resolves the open incident of bookings
-- dropped for that type, whoever adds it (the manager's page, the CLI, the API).
CREATE OR REPLACE FUNCTION public.booking_sources_resolve_unmapped()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  update incidents set resolved_at = now(), updated_at = now()
   where tenant_id = new.tenant_id
     and condition_key = 'booking_unmapped:' || new.provider::text || ':' || new.event_type
     and resolved_at is null;
  return null;
end $function$;
