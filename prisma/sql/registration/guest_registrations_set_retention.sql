-- Trigger: writes a register row's retention, its stay's end plus three years (the lodging law's period).
CREATE OR REPLACE FUNCTION public.guest_registrations_set_retention()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  select r.ends_at + interval '3 years' into strict new.retain_until
    from reservations r where r.tenant_id = new.tenant_id and r.id = new.reservation_id;
  return new;
end $function$;
