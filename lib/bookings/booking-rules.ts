import { sqlLiteral } from '../db/tx';
import { AppError } from '../errors';
import { hourlyRefusal, type HourlyRefusal } from './hourly-window';

/** One room of a booking and its time. */
export type BookingItem = { roomId: string; startsAt: Date; endsAt: Date };

export type FacilityOfRoom = {
  room_id: string;
  booking_unit: 'night' | 'hour';
  time_zone: string;
  opens_at: string | null;
  closes_at: string | null;
};

const MESSAGES: Record<HourlyRefusal, string> = {
  order: 'A booking must end after it starts.',
  not_whole_hours: 'Rooms of an hourly facility are booked from the hour for whole hours.',
  outside_opening_hours: 'Rooms of an hourly facility are booked within its opening hours.',
};

/** The facility of each room the items name, as `assertBookingRules` reads it (rooms of other tenants are absent). */
export function facilitiesOfRoomsSql(tenantId: string, items: BookingItem[]): string {
  return `select r.id::text as room_id, f.booking_unit::text as booking_unit, f.time_zone,
                 to_char(f.opens_at, 'HH24:MI') as opens_at, to_char(f.closes_at, 'HH24:MI') as closes_at
            from rooms r join facilities f on f.tenant_id = r.tenant_id and f.id = r.facility_id
           where r.tenant_id = ${sqlLiteral(tenantId, 'uuid')}
             and r.id = any(array[${items.map((i) => sqlLiteral(i.roomId, 'uuid')).join(', ')}]::uuid[])`;
}

/**
 * Refuses, before anything is held, a booking of an hourly facility's room that does not start on
 * the hour, last whole hours and lie within one day's opening hours in the facility's zone:
 * `invalid_request` (400) with `reason`, the rooms that failed and the opening hours. Nightly rooms
 * pass; rooms of other tenants are not found here (the booking itself refuses them).
 */
export function assertBookingRules(rooms: FacilityOfRoom[], items: BookingItem[]): void {
  const failures = items.flatMap((item) =>
    rooms
      .filter((room) => room.room_id === item.roomId && room.booking_unit === 'hour')
      .flatMap((room) => {
        const opening = {
          timeZone: room.time_zone,
          opensAt: room.opens_at ?? '00:00',
          closesAt: room.closes_at ?? '23:59',
        };
        const reason = hourlyRefusal(item.startsAt, item.endsAt, opening);
        return reason ? [{ roomId: item.roomId, reason, opening }] : [];
      }),
  );
  const first = failures[0];
  if (!first) return;
  throw new AppError(
    'invalid_request',
    `${MESSAGES[first.reason]} Opening hours: ${first.opening.opensAt}–${first.opening.closesAt} (${first.opening.timeZone}).`,
    {
      reason: first.reason,
      roomIds: [...new Set(failures.map((f) => f.roomId))],
      opensAt: first.opening.opensAt,
      closesAt: first.opening.closesAt,
      timeZone: first.opening.timeZone,
    },
  );
}
