-- Re-issues a key: ends it and gives its stay a new one with a new PIN, audited.
CREATE OR REPLACE FUNCTION public.reissue_key(p_tenant_id uuid, p_key_id uuid, p_reason text, p_actor_type actor_type, p_actor_id text, p_actor_label text, p_revoke_reason text DEFAULT 'reissued'::text)
 RETURNS access_keys
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_key access_keys;
  v_res reservations;
  v_new access_keys;
  v_live uuid;
begin
  select * into v_key from access_keys where tenant_id = p_tenant_id and id = p_key_id;
  if not found then
    raise exception 'key % not found', p_key_id using errcode = 'UN404';
  end if;
  if v_key.kind = 'backup' then
    raise exception 'A backup code comes from the lock''s pool; re-issue the key it stands in for.'
      using errcode = 'UR001', detail = format('from=%s to=reissued', v_key.status);
  end if;
  -- The stay's row first, then the key (the order check-in, cancel and check-out take).
  if v_key.reservation_id is not null then
    select * into strict v_res from reservations where tenant_id = p_tenant_id and id = v_key.reservation_id for update;
  end if;
  select * into strict v_key from access_keys where tenant_id = p_tenant_id and id = p_key_id for update;
  select * into v_new from access_keys where tenant_id = p_tenant_id and replaces = p_key_id;
  if found then
    return v_new;
  end if;
  if v_key.kind <> 'staff' and (v_res.status not in ('held', 'confirmed', 'checked_in') or v_res.ends_at <= now()) then
    raise exception 'A % stay gets no new key.', replace(v_res.status::text, '_', ' ') using errcode = 'UR001',
      detail = format('from=%s to=reissued', v_key.status);
  end if;
  if v_key.status in ('pre_issued', 'active') then
    perform app_end_key(p_tenant_id, v_key.id, 'revoked', p_revoke_reason, p_actor_type, p_actor_id, p_actor_label);
    if v_key.kind = 'staff' then
      v_new := app_insert_key_of(p_tenant_id, null, null, v_key.room_id, v_key.status, v_key.valid_from, v_key.expires_at, 'staff',
                                 jsonb_build_object('label', v_key.staff_label, 'purpose', v_key.staff_purpose,
                                                    'userId', v_key.staff_user_id, 'issuedById', p_actor_id,
                                                    'issuedByLabel', p_actor_label), v_key.id);
      perform app_audit(p_tenant_id, p_actor_type, p_actor_id, p_actor_label, 'key.reissued', 'access_key', v_new.id,
                        v_new.room_id, p_reason, jsonb_build_object('replaces', v_key.id, 'staff', true));
      return v_new;
    end if;
    return app_issue_stay_key(p_tenant_id, v_key.reservation_id, v_key.id, 'key.reissued', p_reason,
                              p_actor_type, p_actor_id, p_actor_label, v_key.valid_from, v_key.expires_at);
  end if;
  -- An ended key: only a stay that still runs and has no live key gets a new one.
  if v_key.kind = 'staff' then
    raise exception 'This staff code has ended; create a new one.' using errcode = 'UR001',
      detail = format('from=%s to=reissued', v_key.status);
  end if;
  select id into v_live from access_keys
   where tenant_id = p_tenant_id and reservation_id = v_res.id and status in ('pre_issued', 'active') and kind <> 'backup';
  if found then
    raise exception 'This stay already has a live key (%); re-issue that one.', v_live using errcode = 'UR001',
      detail = format('from=%s to=reissued', v_key.status);
  end if;
  return app_issue_stay_key(p_tenant_id, v_res.id, v_key.id, 'key.reissued', p_reason, p_actor_type, p_actor_id, p_actor_label);
end $function$;
