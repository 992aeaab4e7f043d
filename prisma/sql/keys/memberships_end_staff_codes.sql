-- Trigger: the member's live codes end with their membership.
CREATE OR REPLACE FUNCTION public.memberships_end_staff_codes()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_key uuid;
begin
  for v_key in select id from access_keys
    where tenant_id = old.tenant_id and kind = 'staff' and staff_user_id = old.user_id and status in ('pre_issued', 'active')
    order by created_at, id
  loop
    perform app_end_key(old.tenant_id, v_key, 'revoked', 'member_deactivated', 'system', null, 'member deactivated');
  end loop;
  return null;
end $function$;
