-- Trigger: a code's life on each door, in the audit trail (and so in the reservation's timeline): set, failed,
-- removed, could not be removed, or left valid on an offline lock until its end.
CREATE OR REPLACE FUNCTION public.key_lock_codes_audit()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_lock locks;
  v_room_id uuid;
begin
  select * into v_lock from locks where tenant_id = new.tenant_id and id = new.lock_id;
  select room_id into v_room_id from access_keys where tenant_id = new.tenant_id and id = new.key_id;
  perform app_audit(new.tenant_id, 'provider', v_lock.provider::text, v_lock.provider::text, 'key.door_' || new.state::text,
                    'access_key', new.key_id, v_room_id, new.error,
                    jsonb_build_object('lockId', v_lock.id, 'lockName', v_lock.name, 'deviceId', v_lock.device_id,
                                       'codeId', new.code_id, 'offline', new.offline));
  return null;
end $function$;
