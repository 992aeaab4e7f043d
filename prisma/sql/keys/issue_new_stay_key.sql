-- A stay whose keys have all ended (or that never had one) gets a new key, from its latest ended key.
CREATE OR REPLACE FUNCTION public.issue_new_stay_key(p_tenant_id uuid, p_reservation_id uuid, p_reason text, p_actor_type actor_type, p_actor_id text, p_actor_label text)
 RETURNS access_keys
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_res reservations;
  v_last uuid;
  v_live access_keys;
begin
  v_res := app_lock_live_stay(p_tenant_id, p_reservation_id, 'given a new key');
  select * into v_live from access_keys
   where tenant_id = p_tenant_id and reservation_id = p_reservation_id and status in ('pre_issued', 'active') and kind <> 'backup';
  if found then
    return v_live;
  end if;
  select id into v_last from access_keys
   where tenant_id = p_tenant_id and reservation_id = p_reservation_id and kind = 'guest'
     and not exists (select 1 from access_keys s where s.tenant_id = p_tenant_id and s.replaces = access_keys.id)
   order by created_at desc limit 1;
  if v_last is not null then
    return reissue_key(p_tenant_id, v_last, p_reason, p_actor_type, p_actor_id, p_actor_label);
  end if;
  if v_res.ends_at <= now() then
    raise exception 'This stay is over; it gets no new key.' using errcode = 'UR001', detail = format('from=%s to=keyed', v_res.status);
  end if;
  return app_issue_stay_key(p_tenant_id, p_reservation_id, null, 'key.reissued', p_reason, p_actor_type, p_actor_id, p_actor_label);
end $function$;
