-- Each day's free and total rooms of each room type of a facility: a night facility counts the rooms free for the
-- night that starts on the day (facility time), an hourly one the rooms not taken for all of its opening hours.
CREATE OR REPLACE FUNCTION public.app_room_type_availability(p_tenant_id uuid, p_facility_id uuid, p_from date, p_to date)
 RETURNS TABLE(day date, room_type_id uuid, free integer, total integer)
 LANGUAGE sql
 STABLE
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  with f as (
    select * from facilities where tenant_id = p_tenant_id and id = p_facility_id
  ), days as (
    select d::date as day,
           case when f.booking_unit = 'night'
             then tstzrange((d::date + f.check_in_time) at time zone f.time_zone,
                            (d::date + 1 + f.check_out_time) at time zone f.time_zone, '[)')
             else tstzrange((d::date + coalesce(f.opens_at, '00:00')) at time zone f.time_zone,
                            case when f.closes_at is null or f.closes_at <= coalesce(f.opens_at, '00:00')
                                 then (d::date + 1)::timestamp
                                 else d::date + f.closes_at end at time zone f.time_zone, '[)')
           end as during,
           f.booking_unit as unit
      from f, generate_series(p_from::timestamp, p_to::timestamp, interval '1 day') d
  ), types as (
    select t.id from room_types t
     where t.tenant_id = p_tenant_id and t.facility_id = p_facility_id and t.archived_at is null
  ), rooms_of as (
    select r.id, r.room_type_id from rooms r
     where r.tenant_id = p_tenant_id and r.facility_id = p_facility_id and r.archived_at is null
       and r.room_type_id in (select id from types)
  )
  select days.day, types.id,
         (count(r.id) filter (where case
            when days.unit = 'night' then app_room_free(p_tenant_id, r.id, null, days.during)
            else (select coalesce(sum(upper(x) - lower(x)), interval '0')
                    from unnest((select range_agg(h.during * days.during) from room_holds h
                                  where h.tenant_id = p_tenant_id and h.room_id = r.id and not h.soft
                                    and h.during && days.during)) x)
                 < upper(days.during) - lower(days.during)
          end))::int,
         count(r.id)::int
    from days cross join types left join rooms_of r on r.room_type_id = types.id
   group by days.day, types.id
   order by days.day, types.id
$function$;
