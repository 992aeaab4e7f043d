-- Pre-issue through the window function (it took key_lead before the start, whoever was in the room).
CREATE OR REPLACE FUNCTION public.pre_issue_key(p_tenant_id uuid, p_reservation_id uuid, p_actor_type actor_type, p_actor_id text, p_actor_label text)
 RETURNS access_keys
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_key access_keys;
  v_res reservations;
  v_window record;
begin
  perform pg_advisory_xact_lock(hashtextextended(p_reservation_id::text, 1));
  select * into v_key from access_keys
   where tenant_id = p_tenant_id and reservation_id = p_reservation_id and status = 'pre_issued' and kind <> 'backup';
  if found then return v_key; end if;
  select r.* into strict v_res from reservations r where r.tenant_id = p_tenant_id and r.id = p_reservation_id;
  select * into v_window from app_stay_key_window(p_tenant_id, p_reservation_id, 'pre_issued');
  v_key := app_insert_key(p_tenant_id, v_res.id, null, v_res.room_id, 'pre_issued', v_window.valid_from, v_window.expires_at);
  perform app_audit(p_tenant_id, p_actor_type, p_actor_id, p_actor_label, 'key.pre_issued', 'access_key', v_key.id, v_key.room_id, null,
                    jsonb_build_object('reservationId', v_res.id));
  return v_key;
end $function$;
