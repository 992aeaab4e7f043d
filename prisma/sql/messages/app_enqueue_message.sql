-- Adds one message and its job, once per (tenant, reservation, kind, occasion).
CREATE OR REPLACE FUNCTION public.app_enqueue_message(p_tenant_id uuid, p_reservation_id uuid, p_incident_id uuid, p_user_id uuid, p_kind message_kind, p_occasion text, p_to text, p_locale text)
 RETURNS SETOF messages
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_row messages;
begin
  if p_to is null or btrim(p_to) = '' then return; end if;
  insert into messages (tenant_id, reservation_id, incident_id, recipient_user_id, kind, occasion, to_address, locale)
  values (p_tenant_id, p_reservation_id, p_incident_id, p_user_id, p_kind, p_occasion, btrim(p_to), p_locale)
  on conflict (tenant_id, reservation_id, kind, occasion) do nothing
  returning * into v_row;
  if v_row.id is null then return; end if;
  -- Six attempts with graphile-worker's exponential backoff (about two minutes in all), then failed.
  perform app_enqueue_job('send_message', jsonb_build_object('tenantId', p_tenant_id, 'messageId', v_row.id),
                          job_key => 'message:' || v_row.id, max_attempts => 6);
  return next v_row;
end $function$;
