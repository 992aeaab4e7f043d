-- The register's personal data is a manager's to read: the transaction's user must be an active manager of the tenant (42501).
CREATE OR REPLACE FUNCTION public.app_register_assert_manager(p_tenant_id uuid)
 RETURNS void
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  perform app_register_assert_scope(p_tenant_id, null);
  if app_current_tenant() is null or not exists (
       select 1 from memberships m
        where m.tenant_id = p_tenant_id and m.user_id = app_current_user()
          and m.role = 'manager' and m.deactivated_at is null) then
    raise exception 'only a manager of this tenant reads the guest register' using errcode = '42501';
  end if;
end $function$;
