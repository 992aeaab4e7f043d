-- The stay key of a check-in: the live one, else a new one — only for a stay that is checked in and not over.
CREATE OR REPLACE FUNCTION public.issue_checkin_key(p_tenant_id uuid, p_check_in_id uuid, p_actor_type actor_type, p_actor_id text, p_actor_label text)
 RETURNS access_keys
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_key access_keys;
  v_res reservations;
  v_stale uuid;
  v_last access_keys;
  v_window record;
begin
  perform pg_advisory_xact_lock(hashtextextended(p_check_in_id::text, 0));
  select r.* into v_res from check_ins c join reservations r on r.tenant_id = c.tenant_id and r.id = c.reservation_id
   where c.tenant_id = p_tenant_id and c.id = p_check_in_id;
  if not found then
    raise exception 'check-in % not found', p_check_in_id using errcode = 'UN404';
  end if;
  for v_stale in select id from access_keys
    where tenant_id = p_tenant_id and check_in_id = p_check_in_id and status = 'active' and expires_at <= now()
  loop
    perform app_end_key(p_tenant_id, v_stale, 'expired', 'stay_ended', 'system', null, 'expiry');
  end loop;
  select * into v_key from access_keys
   where tenant_id = p_tenant_id and check_in_id = p_check_in_id and status = 'active' and kind <> 'backup';
  if found then return v_key; end if;
  if v_res.status = 'checked_out' then
    raise exception 'This stay is checked out; it gets no new key.' using errcode = 'UR001',
      detail = 'from=checked_out to=keyed';
  end if;
  if v_res.status <> 'checked_in' or v_res.ends_at <= now() then
    raise exception 'reservation % cannot have a key', v_res.id using errcode = 'UK004';
  end if;
  -- The stay's latest key that nothing replaced: revoked by someone → that revocation stands.
  select k.* into v_last from access_keys k
   where k.tenant_id = p_tenant_id and k.reservation_id = v_res.id and k.kind = 'guest' and k.check_in_id is not null
     and not exists (select 1 from access_keys s where s.tenant_id = k.tenant_id and s.replaces = k.id)
   order by k.created_at desc, k.id limit 1;
  if found and v_last.status = 'revoked' then
    raise exception 'The stay key was revoked (%); re-issue it with a reason to give the guest a new one.', v_last.revoked_reason
      using errcode = 'UK005', detail = v_last.id::text;
  end if;
  select * into v_window from app_stay_key_window(p_tenant_id, v_res.id, 'active');
  v_key := app_insert_key(p_tenant_id, v_res.id, p_check_in_id, v_res.room_id, 'active', v_window.valid_from, v_window.expires_at);
  perform app_audit(p_tenant_id, p_actor_type, p_actor_id, p_actor_label, 'key.issued', 'access_key', v_key.id, v_key.room_id, null,
                    jsonb_build_object('reservationId', v_res.id, 'checkInId', p_check_in_id));
  return v_key;
end $function$;
