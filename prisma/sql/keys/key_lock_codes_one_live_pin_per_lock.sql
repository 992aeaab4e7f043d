-- Trigger: one live PIN per lock across all its doors (serialised per lock).
CREATE OR REPLACE FUNCTION public.key_lock_codes_one_live_pin_per_lock()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_pin text;
begin
  -- Serialises door inserts per lock: the check below then sees every committed door of that lock.
  perform pg_advisory_xact_lock(hashtextextended('lock-pin:' || new.lock_id::text, 0));
  select pin into strict v_pin from access_keys where tenant_id = new.tenant_id and id = new.key_id;
  if exists (select 1 from key_lock_codes c join access_keys k on k.tenant_id = c.tenant_id and k.id = c.key_id
              where c.tenant_id = new.tenant_id and c.lock_id = new.lock_id and c.key_id <> new.key_id
                and c.state not in ('removed', 'failed') and k.pin = v_pin) then
    raise exception 'that PIN is already live on lock %', new.lock_id
      using errcode = '23505', constraint = 'key_lock_codes_one_live_pin_per_lock';
  end if;
  return new;
end $function$;
