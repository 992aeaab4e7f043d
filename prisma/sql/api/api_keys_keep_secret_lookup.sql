-- Trigger: keeps api_key_secrets (the hash-to-key lookup that runs before the tenant is known) in step with
-- api_keys.
CREATE OR REPLACE FUNCTION public.api_keys_keep_secret_lookup()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    delete from api_key_secrets where secret_hash = old.secret_hash and tenant_id = old.tenant_id and api_key_id = old.id;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into api_key_secrets (secret_hash, tenant_id, api_key_id) values (new.secret_hash, new.tenant_id, new.id);
  end if;
  return null;
end $function$;
