-- Each day's free and total rooms of each room type of a facility: a night facility counts the rooms free for the
-- night that starts on the day (facility time), an hourly one the rooms not taken for all of its opening hours.
-- The facility's hard holds that can meet the days are read once, by `room_holds_room_end` (a range `&&` is not
-- leakproof, so under row-level security it could only filter a room's whole history: only the end's bound,
-- a plain timestamptz, is an index condition), then matched to the days in memory.
CREATE OR REPLACE FUNCTION public.app_room_type_availability(p_tenant_id uuid, p_facility_id uuid, p_from date, p_to date)
 RETURNS TABLE(day date, room_type_id uuid, free integer, total integer)
 LANGUAGE sql
 STABLE
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  with f as (
    select * from facilities where tenant_id = p_tenant_id and id = p_facility_id
  ), days as materialized (
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
  ), rooms_of as materialized (
    select r.id, r.room_type_id from rooms r
     where r.tenant_id = p_tenant_id and r.facility_id = p_facility_id and r.archived_at is null
       and r.room_type_id in (select id from types)
  ), holds as materialized (
    -- Every hold ending after the day before p_from in UTC (whatever the time zone, before the first day starts).
    select h.room_id, h.during from rooms_of r
      join room_holds h on h.tenant_id = p_tenant_id and h.room_id = r.id
                       and h.ends_at > (p_from - 1)::timestamp at time zone 'UTC'
     where not h.soft
  ), taken as (
    -- What the holds take of each day of each room (a day without a row: nothing).
    select days.day, h.room_id, range_agg(h.during * days.during) as taken
      from days join holds h on h.during && days.during
     group by days.day, h.room_id
  )
  select days.day, types.id,
         (count(r.id) filter (where case
            when days.unit = 'night' then isempty(days.during) or t.taken is null
            else coalesce((select sum(upper(x) - lower(x)) from unnest(t.taken) x), interval '0')
                 < upper(days.during) - lower(days.during)
          end))::int,
         count(r.id)::int
    from days cross join types left join rooms_of r on r.room_type_id = types.id
    left join taken t on t.day = days.day and t.room_id = r.id
   group by days.day, types.id
   order by days.day, types.id
$function$;
