-- Trigger: every path that creates a reservation or changes a stay writes its audit row in the same transaction
-- (desk, API, Calendly, Cal.com; move, PATCH, re-issue): the message follows from it.
CREATE OR REPLACE FUNCTION public.audit_events_enqueue_messages()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_reservation_id uuid;
begin
  if new.action = 'key.reissued' then
    select k.reservation_id into v_reservation_id from access_keys k
     where k.tenant_id = new.tenant_id and k.id = new.subject_id;
  else
    v_reservation_id := new.subject_id;
  end if;
  if v_reservation_id is null then return null; end if;
  -- One stay_changed per changing transaction: a move that also writes key.reissued is one change
  -- to the guest. The transaction id (xid8) never repeats in the cluster's life.
  perform app_enqueue_guest_message(new.tenant_id, v_reservation_id,
    case when new.action = 'reservation.created' then 'key_link' else 'stay_changed' end::message_kind,
    case when new.action = 'reservation.created' then 'booking' else 'change:' || pg_current_xact_id() end);
  return null;
end $function$;
