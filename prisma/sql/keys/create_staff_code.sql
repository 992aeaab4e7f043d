-- A staff code for a room and a work window; `p_user_id` must be a member of the tenant.
CREATE OR REPLACE FUNCTION public.create_staff_code(p_tenant_id uuid, p_room_id uuid, p_label text, p_purpose staff_code_purpose, p_starts_at timestamp with time zone, p_ends_at timestamp with time zone, p_user_id uuid, p_actor_type actor_type, p_actor_id text, p_actor_label text)
 RETURNS access_keys
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_room rooms;
  v_key access_keys;
begin
  select * into v_room from rooms where tenant_id = p_tenant_id and id = p_room_id;
  if not found then
    raise exception 'room % not found', p_room_id using errcode = 'UN404';
  end if;
  if v_room.archived_at is not null then
    raise exception 'Room % is archived.', v_room.label using errcode = 'UR002';
  end if;
  if p_user_id is not null and not exists (select 1 from memberships where tenant_id = p_tenant_id and user_id = p_user_id) then
    raise exception 'user % not found', p_user_id using errcode = 'UN404';
  end if;
  if p_ends_at <= p_starts_at or p_ends_at <= now() then
    raise exception 'A staff code must end after it starts, and in the future.' using errcode = 'UR003', detail = 'endsAt';
  end if;
  v_key := app_insert_key_of(p_tenant_id, null, null, p_room_id, 'active', p_starts_at, p_ends_at, 'staff',
                             jsonb_build_object('label', p_label, 'purpose', p_purpose, 'userId', p_user_id,
                                                'issuedById', p_actor_id, 'issuedByLabel', p_actor_label), null);
  perform app_audit(p_tenant_id, p_actor_type, p_actor_id, p_actor_label, 'staff_code.created', 'access_key', v_key.id, p_room_id,
                    p_purpose::text, jsonb_strip_nulls(jsonb_build_object('label', p_label, 'purpose', p_purpose,
                                                                          'forUserId', p_user_id, 'validFrom', p_starts_at,
                                                                          'expiresAt', p_ends_at)));
  return v_key;
end $function$;
