-- Trigger: a key that ends takes its code off every door: online codes go to `removing` (the removal job then
-- confirms each), an offline code cannot be removed and says so, and a door that never got the code is checked all
-- the same (a lost answer may have set it).
CREATE OR REPLACE FUNCTION public.access_keys_end_doors()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  update key_lock_codes
     set state = case when offline then 'valid_until_end' else 'removing' end::door_code_state,
         error = null, attempts = 0, updated_at = now()
   where tenant_id = new.tenant_id and key_id = new.id and state not in ('removed', 'valid_until_end');
  return null;
end $function$;
