-- A stay key's window: from its natural start (a self check-in's: its early check-in), after other stays' hard holds.
CREATE OR REPLACE FUNCTION public.app_stay_key_window(p_tenant_id uuid, p_reservation_id uuid, p_status key_status, p_from timestamp with time zone DEFAULT NULL::timestamp with time zone, OUT valid_from timestamp with time zone, OUT expires_at timestamp with time zone)
 RETURNS record
 LANGUAGE sql
 STABLE
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  select greatest(w.natural_from,
                  coalesce((select max(upper(h.during)) from room_holds h
                             where h.tenant_id = w.tenant_id and h.room_id = w.room_id and h.reservation_id <> w.id
                               and not h.soft
                               and h.during && tstzrange(w.natural_from, w.starts_at, '[)')), w.natural_from)),
         w.ends_at
    from (select r.tenant_id, r.id, r.room_id, r.starts_at, r.ends_at,
                 coalesce(p_from,
                          case when p_status = 'active' and c.self_check_in
                                 -- A guest's self check-in: never before the early check-in allows.
                                 then greatest(least(now(), r.starts_at),
                                               r.starts_at - make_interval(mins => f.early_check_in_minutes))
                               when p_status = 'active' then least(now(), r.starts_at)
                               else r.starts_at - make_interval(mins => f.key_lead_minutes) end) as natural_from
            from reservations r
            join rooms ro on ro.tenant_id = r.tenant_id and ro.id = r.room_id
            join facilities f on f.tenant_id = ro.tenant_id and f.id = ro.facility_id
            left join check_ins c on c.tenant_id = r.tenant_id and c.reservation_id = r.id
           where r.tenant_id = p_tenant_id and r.id = p_reservation_id) w
$function$;
