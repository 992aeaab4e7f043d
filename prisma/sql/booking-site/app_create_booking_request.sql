-- A guest's booking request on the site and the mail carrying its code, queued in the same transaction; it keeps its
-- mailbox's key (issue 43.4: app_confirm_booking_request bounds the unpaid stays one mailbox holds).
CREATE OR REPLACE FUNCTION public.app_create_booking_request(p_tenant_id uuid, p_request_id uuid, p_facility_id uuid, p_room_type_id uuid, p_starts_at timestamp with time zone, p_ends_at timestamp with time zone, p_guest_name text, p_guest_email text, p_guest_phone text, p_locale text, p_code_hash bytea, p_code_minutes integer, p_amount_cents integer, p_currency text, p_payment_mode payment_mode, p_mailbox_key text)
 RETURNS TABLE(id uuid, code_expires_at timestamp with time zone)
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_message uuid;
begin
  insert into booking_requests (tenant_id, id, facility_id, room_type_id, starts_at, ends_at, guest_name, guest_email,
                                guest_phone, locale, code_hash, code_expires_at, amount_cents, currency, payment_mode,
                                mailbox_key)
  values (p_tenant_id, p_request_id, p_facility_id, p_room_type_id, p_starts_at, p_ends_at, p_guest_name, p_guest_email,
          p_guest_phone, p_locale, p_code_hash, now() + make_interval(mins => p_code_minutes), p_amount_cents, p_currency,
          p_payment_mode, p_mailbox_key)
  returning booking_requests.id, booking_requests.code_expires_at into id, code_expires_at;
  insert into messages (tenant_id, booking_request_id, kind, occasion, to_address, locale)
  values (p_tenant_id, p_request_id, 'booking_code', 'request:' || p_request_id, p_guest_email, p_locale)
  returning messages.id into v_message;
  perform app_enqueue_job('send_message', jsonb_build_object('tenantId', p_tenant_id, 'messageId', v_message),
                          job_key => 'message:' || v_message, max_attempts => 6);
  return next;
end $function$;
