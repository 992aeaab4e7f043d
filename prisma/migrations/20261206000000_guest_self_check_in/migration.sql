-- Issue 31: the guest checks in from the phone at a self check-in facility, and no PIN reaches them before.
--
-- Errors raised by the functions this needs (lib/db/errors.ts maps them):
--   UC004 a guest's check-in at a facility where the desk checks guests in (desk_check_in)
--   UC005 a guest's check-in before the stay's register is complete (registration_required)

-- A check-in the guest made themselves (app_complete_check_in with a guest actor): it opens
-- self_check_in_opens_hours before the start, and its key works no earlier than the facility's early check-in
-- (app_stay_key_window), whenever it is issued again (a move, new dates, a re-issue).
alter table check_ins add column self_check_in boolean not null default false;
alter table check_ins add constraint check_ins_self_not_early check (not (self_check_in and early));

-- sql-file-exception: the guest policy below needs it now (prisma/sql/guests/app_guest_keys_hidden.sql holds it)
CREATE OR REPLACE FUNCTION public.app_guest_keys_hidden()
 RETURNS boolean
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  select coalesce((select f.check_in_mode = 'self'
                          and not exists (select 1 from check_ins c
                                           where c.tenant_id = r.tenant_id and c.reservation_id = r.id)
                     from app_guest_link_reservation() l
                     join reservations r on r.tenant_id = l.tenant_id and r.id = l.reservation_id
                     join rooms ro on ro.tenant_id = r.tenant_id and ro.id = r.room_id
                     join facilities f on f.tenant_id = ro.tenant_id and f.id = ro.facility_id), true)
$function$;
grant execute on function app_guest_keys_hidden() to app_anon;


-- At a self check-in facility a guest link sees none of its stay's keys until the stay is checked in: the page,
-- the key endpoint and the poll all read keys through this policy, so none of them can show a pre-issued PIN.
alter policy guest_link on access_keys
  using (tenant_id = (select app_guest_tenant_id()) and reservation_id = (select app_guest_reservation_id())
         and not (select app_guest_keys_hidden()));
