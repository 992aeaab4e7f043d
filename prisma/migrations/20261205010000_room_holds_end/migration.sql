-- Issue 30: the booking site's availability stays flat however much history a facility has.
--
-- room_holds keeps each hold as a tstzrange, and `&&` on a range (like lower() and upper()) is not leakproof:
-- under row-level security the planner keeps it out of index conditions, so a reader of a room's holds over a
-- span (app_room_type_availability, app_room_free) read every hold the room ever had — with a million past stays
-- in 30 rooms, 33,000 a room, 930 times for a month of availability. The hold's end as a plain timestamptz
-- (timestamptz comparisons are leakproof) with an index gives those readers an index range: the holds ending after
-- the span starts, which for today's questions are the future ones. Written by PostgreSQL from `during` (stored:
-- a virtual column can have no index), so the triggers that keep room_holds do not change.
alter table room_holds add column ends_at timestamptz generated always as (upper(during)) stored;
create index room_holds_room_end on room_holds (tenant_id, room_id, ends_at);
