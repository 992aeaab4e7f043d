-- Inside a transaction scoped to a tenant, the secret functions refuse any other tenant (42501).
CREATE OR REPLACE FUNCTION public.app_secret_assert_scope(p_tenant_id uuid)
 RETURNS void
 LANGUAGE plpgsql
 STABLE
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  if app_current_tenant() is not null and p_tenant_id is distinct from app_current_tenant() then
    raise exception 'this transaction is scoped to another tenant' using errcode = '42501';
  end if;
end $function$;
