-- Issue 43.4: what one client address, one mailbox or one stay can hold unpaid is bounded well below the inventory.
--   UB004 too many unpaid holds (→ 429 too_many_holds): a booking-site confirm beyond 2 live unpaid stays of one
--         facility for the confirming address or the request's mailbox (app_confirm_booking_request)
--   UR007 extension pending (→ 409 extension_pending): a new online extension hold within 15 minutes of the stay's
--         last one lapsing unpaid (app_request_stay_extension)
--
-- A booking request keeps two pseudonymous keys, sha-256 hex computed by the caller (lib/booking-site/hold-keys.ts):
-- its mailbox (the email normalised: case, `+tag`, and the dots Gmail ignores) from the request on, and the client
-- address that confirmed it. A confirm counts the facility's live unpaid stays of either key under an advisory lock
-- per key, so two confirms at once from one address or mailbox cannot both take the last place. Deleting the guest
-- clears both keys (trigger guests_erase_hold_keys).
alter table booking_requests
  add column mailbox_key text check (mailbox_key ~ '^[0-9a-f]{64}$'),
  add column hold_address_key text check (hold_address_key ~ '^[0-9a-f]{64}$');
create index booking_requests_holds_by_mailbox on booking_requests (tenant_id, facility_id, mailbox_key)
  where status = 'confirmed' and mailbox_key is not null;
create index booking_requests_holds_by_address on booking_requests (tenant_id, facility_id, hold_address_key)
  where status = 'confirmed' and hold_address_key is not null;

-- Both functions gain a key argument (their files in prisma/sql/booking-site/ hold the new definitions).
drop function if exists app_create_booking_request(uuid, uuid, uuid, uuid, timestamptz, timestamptz, text, text, text, text, bytea,
                                         integer, integer, text, payment_mode);
drop function if exists app_confirm_booking_request(uuid, uuid, bytea, uuid, uuid, uuid, bytea, integer);

-- sql-file-exception: the trigger below needs its function now (its file is prisma/sql/booking-site/guests_erase_hold_keys.sql)
CREATE OR REPLACE FUNCTION public.guests_erase_hold_keys()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  update booking_requests q set mailbox_key = null, hold_address_key = null
    from reservations r
   where q.tenant_id = old.tenant_id and r.tenant_id = q.tenant_id and r.id = q.reservation_id and r.guest_id = old.id
     and (q.mailbox_key is not null or q.hold_address_key is not null);
  return old;
end $function$;
create trigger guests_erase_hold_keys before delete on guests for each row execute function guests_erase_hold_keys();
