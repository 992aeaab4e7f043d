-- Trigger: keeps a stay's register three years from the stay's actual end when the end moves.
CREATE OR REPLACE FUNCTION public.reservations_keep_register_retention()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  update guest_registrations set retain_until = new.ends_at + interval '3 years'
   where tenant_id = new.tenant_id and reservation_id = new.id;
  return null;
end $function$;
