-- Trigger: a staff code's rules, once, in PostgreSQL — the desk allowed a code until 2036 while the API capped 31
-- days.
CREATE OR REPLACE FUNCTION public.access_keys_staff_code_rules()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  if new.expires_at - new.valid_from > interval '31 days' then
    raise exception 'A staff code lasts at most 31 days.' using errcode = 'UK006', detail = 'endsAt';
  end if;
  if tg_op = 'INSERT' and new.expires_at <= now() then
    raise exception 'A staff code must end in the future.' using errcode = 'UK006', detail = 'endsAt';
  end if;
  if new.staff_user_id is not null and not exists (
       select 1 from memberships m
        where m.tenant_id = new.tenant_id and m.user_id = new.staff_user_id and m.deactivated_at is null) then
    raise exception 'user % not found', new.staff_user_id using errcode = 'UN404';
  end if;
  if exists (select 1 from rooms r where r.tenant_id = new.tenant_id and r.id = new.room_id and r.archived_at is not null) then
    raise exception 'This room is archived and takes no staff codes.' using errcode = 'UR002';
  end if;
  return new;
end $function$;
