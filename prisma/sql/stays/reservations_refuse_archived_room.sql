-- Trigger: an archived room takes no new reservation, and no reservation moves into it (UR005, the room id as JSON
-- in DETAIL, like UB001).
CREATE OR REPLACE FUNCTION public.reservations_refuse_archived_room()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_archived timestamptz;
begin
  if tg_op = 'UPDATE' and new.room_id = old.room_id then
    return new;
  end if;
  select ro.archived_at into v_archived from rooms ro
   where ro.tenant_id = new.tenant_id and ro.id = new.room_id for share;
  if v_archived is not null then
    raise exception 'room % is archived and takes no new stays', new.room_id
      using errcode = 'UR005', detail = jsonb_build_array(new.room_id)::text;
  end if;
  return new;
end $function$;
