-- Trigger: the rate's name goes into the reservation's snapshot at insert, whoever inserts it (desk, API, Calendly,
-- Cal.com), unless the inserting function wrote one itself.
CREATE OR REPLACE FUNCTION public.reservations_snapshot_plan_name()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  if new.plan_name_snapshot is null then
    select ro.rate_name into new.plan_name_snapshot
      from rooms ro where ro.tenant_id = new.tenant_id and ro.id = new.room_id;
  end if;
  return new;
end $function$;
