-- Trigger: refuses deleting a register row before its retention ends, unless its stay is still ahead or under way.
CREATE OR REPLACE FUNCTION public.guest_registrations_keep_until_retention()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  if old.retain_until <= now() then
    return old;
  end if;
  -- Before its retention ends, a register is replaced only while its stay is still ahead or under way (the
  -- guest's own PUT, app_registration_replace); once the stay has ended it is the legal record.
  if exists (select 1 from reservations r
              where r.tenant_id = old.tenant_id and r.id = old.reservation_id
                and r.status in ('held', 'confirmed', 'checked_in') and r.ends_at > now()) then
    return old;
  end if;
  raise exception 'the guest register of this stay is kept until %', old.retain_until using errcode = 'UG003';
end $function$;
