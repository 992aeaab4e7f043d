-- Trigger: managers are told when a tenant's incident opens (level 1) and when its occurrences reach 5 and 20, once
-- per level and manager.
CREATE OR REPLACE FUNCTION public.incidents_enqueue_messages()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_level integer;
  v_locale text;
begin
  if new.tenant_id is null or new.resolved_at is not null then return null; end if;
  v_locale := app_message_locale(new.tenant_id, null);
  foreach v_level in array array[1, 5, 20] loop
    if new.occurrences >= v_level and (tg_op = 'INSERT' or old.occurrences < v_level) then
      perform app_enqueue_message(new.tenant_id, null, new.id, u.id,
                                  case when v_level = 1 then 'incident_opened' else 'incident_raised' end::message_kind,
                                  'incident:' || new.id || ':level:' || v_level || ':' || u.id, u.email, v_locale)
         from memberships m join users u on u.id = m.user_id
        where m.tenant_id = new.tenant_id and m.role = 'manager' and m.deactivated_at is null;
    end if;
  end loop;
  return null;
end $function$;
