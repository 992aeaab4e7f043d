-- Trigger: at least one active manager per tenant: a change that leaves a tenant's last active manager demoted or
-- deactivated is refused (UM001).
CREATE OR REPLACE FUNCTION public.memberships_keep_a_manager()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  if not (old.role = 'manager' and old.deactivated_at is null) then
    return null;
  end if;
  if tg_op = 'UPDATE' and new.role = 'manager' and new.deactivated_at is null then
    return null;
  end if;
  perform pg_advisory_xact_lock(hashtextextended('memberships:' || old.tenant_id::text, 0));
  if not exists (select 1 from tenants t where t.id = old.tenant_id) then
    return null;
  end if;
  if not exists (select 1 from memberships m
                  where m.tenant_id = old.tenant_id and m.role = 'manager' and m.deactivated_at is null) then
    raise exception 'tenant % would have no active manager', old.tenant_id
      using errcode = 'UM001', detail = old.user_id::text;
  end if;
  return null;
end $function$;
