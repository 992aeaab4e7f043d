-- Trigger: the key lifecycle (lib/keys/lifecycle.ts's KEY_TRANSITIONS); an ended key never changes (UK001).
CREATE OR REPLACE FUNCTION public.access_keys_guard_transition()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  if new.status is distinct from old.status and not (
       (old.status = 'pre_issued' and new.status in ('active', 'revoked', 'expired'))
    or (old.status = 'active' and new.status in ('revoked', 'expired'))
  ) then
    raise exception 'illegal key transition from % to %', old.status, new.status
      using errcode = 'UK001', detail = format('from=%s to=%s', old.status, new.status);
  end if;
  if new.pin is distinct from old.pin or new.room_id is distinct from old.room_id
     or new.reservation_id is distinct from old.reservation_id or new.tenant_id is distinct from old.tenant_id
     or new.kind is distinct from old.kind or new.id is distinct from old.id then
    raise exception 'an access key''s identity cannot change' using errcode = 'UK002';
  end if;
  new.updated_at := now();
  return new;
end $function$;
