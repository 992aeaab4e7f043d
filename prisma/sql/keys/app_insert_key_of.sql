-- Inserting a live key of any kind: a fresh random PIN, drawn again while it is live on the room or on one of its
-- doors, its program job (and backup check) in the outbox.
CREATE OR REPLACE FUNCTION public.app_insert_key_of(p_tenant_id uuid, p_reservation_id uuid, p_check_in_id uuid, p_room_id uuid, p_status key_status, p_valid_from timestamp with time zone, p_expires_at timestamp with time zone, p_kind key_kind, p_staff jsonb, p_replaces uuid)
 RETURNS access_keys
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_key access_keys;
  v_len integer;
  v_constraint text;
begin
  select pin_length into strict v_len from rooms where tenant_id = p_tenant_id and id = p_room_id;
  for attempt in 1..50 loop
    begin
      insert into access_keys (tenant_id, reservation_id, check_in_id, room_id, status, pin, valid_from, expires_at, kind,
                               staff_label, staff_purpose, staff_user_id, issued_by_id, issued_by_label, replaces)
      values (p_tenant_id, p_reservation_id, p_check_in_id, p_room_id, p_status, app_random_pin(v_len), p_valid_from, p_expires_at,
              p_kind, p_staff->>'label', (p_staff->>'purpose')::staff_code_purpose, (p_staff->>'userId')::uuid,
              p_staff->>'issuedById', p_staff->>'issuedByLabel', p_replaces)
      returning * into v_key;
      perform app_enqueue_job('vendor_program_key', jsonb_build_object('tenantId', p_tenant_id, 'keyId', v_key.id),
                              queue_name => 'key:' || v_key.id, max_attempts => 8);
      if p_kind <> 'staff' and exists (
           select 1 from room_locks rl join locks l on l.tenant_id = rl.tenant_id and l.id = rl.lock_id
            where rl.tenant_id = p_tenant_id and rl.room_id = p_room_id and l.supports_backup_codes) then
        perform app_enqueue_job('key_backup_check', jsonb_build_object('tenantId', p_tenant_id, 'keyId', v_key.id),
                                run_at => greatest(p_valid_from - interval '15 minutes', now() + interval '5 minutes'),
                                max_attempts => 3);
      end if;
      return v_key;
    exception when unique_violation then
      get stacked diagnostics v_constraint = constraint_name;
      if v_constraint not in ('access_keys_one_live_pin_per_room', 'key_lock_codes_one_live_pin_per_lock') then raise; end if;
    end;
  end loop;
  raise exception 'no free PIN on room %', p_room_id using errcode = 'UK003';
end $function$;
