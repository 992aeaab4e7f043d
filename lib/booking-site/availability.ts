import { AppError } from '../errors';
import { rateLimitHits, type RateLimitRule } from '../ratelimit/rate-limit';
import { runStatements, sqlLiteral, statement } from '../db/tx';
import { addDays, calendarDay, zonedToday } from '../bookings/stay-window';
import { bookingWindow, type TStayChoice } from './booking-window';
import { quoteHours, quoteNights, type TQuote } from './pricing';
import { bookingSiteStatement, type BookingSite } from './public-facility';

export const MAX_AVAILABILITY_DAYS = 62;

export type TLevel = 'available' | 'few' | 'full' | 'past';
export type TDayAvailability = {
  date: string;
  roomTypes: { id: string; free: number; total: number; level: TLevel }[];
};

/** A day's level for a room type: past days first, then full, then few (free ≤ half of the total). Pure. */
export function levelOf(date: string, today: string, free: number, total: number): TLevel {
  if (date < today) return 'past';
  if (free <= 0) return 'full';
  return free * 2 <= total ? 'few' : 'available';
}

type AvailabilityRow = { day: string; room_type_id: string; free: number; total: number };

function availabilityStatement(slug: string, from: string, to: string) {
  return statement<AvailabilityRow>(
    `select to_char(a.day, 'YYYY-MM-DD') as day, a.room_type_id, a.free, a.total
       from app_public_facility(${sqlLiteral(slug, 'text')}) p
      cross join lateral app_room_type_availability(p.tenant_id, p.facility_id, ${sqlLiteral(from, 'date')},
                                                    ${sqlLiteral(to, 'date')}) a`,
  );
}

function notFound(): AppError {
  return new AppError('not_found', 'No booking site at this address.');
}

/**
 * The published booking site of `slug`, with `limit`'s hits counted in the same round trip (a refusal thrown
 * first): what a public POST reads before its body, so an unknown or unpublished slug is 404 `not_found` unread.
 */
export async function requireBookingSite(slug: string, limit: RateLimitRule[]): Promise<BookingSite> {
  const [, sites] = await runStatements({ role: 'app_service' }, [rateLimitHits(limit), bookingSiteStatement(slug)]);
  const site = sites[0];
  if (!site) throw notFound();
  return site;
}

/** Each day's availability of each room type from `from` to `to` (inclusive, at most 62 days), in one round trip. */
export async function getAvailability(input: {
  slug: string;
  from: string;
  to: string;
  limit: RateLimitRule[];
  now?: Date;
}): Promise<TDayAvailability[]> {
  const first = calendarDay(input.from);
  const last = calendarDay(input.to);
  if (first === null || last === null || last < first || last - first + 1 > MAX_AVAILABILITY_DAYS) {
    throw new AppError(
      'invalid_request',
      `from and to must be dates, from ≤ to, at most ${MAX_AVAILABILITY_DAYS} days.`,
      {
        issues: [{ path: 'to', message: `at most ${MAX_AVAILABILITY_DAYS} days from from`, code: 'custom' }],
      },
    );
  }
  const [, sites, rows] = await runStatements({ role: 'app_service' }, [
    rateLimitHits(input.limit),
    bookingSiteStatement(input.slug),
    availabilityStatement(input.slug, input.from, input.to),
  ]);
  const site = sites[0];
  if (!site) throw notFound();
  const today = zonedToday(input.now ?? new Date(), site.facility.timeZone);
  const byDay = new Map<string, TDayAvailability>();
  for (let date = input.from; date <= input.to; date = addDays(date, 1)) byDay.set(date, { date, roomTypes: [] });
  const order = new Map(site.facility.roomTypes.map((t, i) => [t.id, i]));
  for (const row of [...rows].sort((a, b) => (order.get(a.room_type_id) ?? 0) - (order.get(b.room_type_id) ?? 0))) {
    byDay.get(row.day)?.roomTypes.push({
      id: row.room_type_id,
      free: row.free,
      total: row.total,
      level: levelOf(row.day, today, row.free, row.total),
    });
  }
  return [...byDay.values()];
}

/** The room type of a site, or 404. */
export function roomTypeOf(site: BookingSite, roomTypeId: string) {
  const rates = site.rates.get(roomTypeId);
  if (!rates) throw new AppError('not_found', 'This facility has no such room type.');
  return rates;
}

/** The price of a choice from the server's rate table. */
export function priceChoice(site: BookingSite, roomTypeId: string, choice: TStayChoice, now = new Date()) {
  const rates = roomTypeOf(site, roomTypeId);
  const window = bookingWindow(site.facility, choice, now);
  const quote: TQuote =
    window.checkIn && window.checkOut
      ? quoteNights(rates, site.rules, window.checkIn, window.checkOut)
      : quoteHours(rates, site.rules, window.startsAt, window.endsAt);
  return { window, quote, rates };
}

/** Whether a room of the type is free for the whole window (the hold decides for real, under its lock). */
export function freeRoomStatement(site: BookingSite, roomTypeId: string, startsAt: Date, endsAt: Date) {
  return statement<{ free: boolean }>(
    `select exists (
       select 1 from rooms r
        where r.tenant_id = ${sqlLiteral(site.tenantId, 'uuid')} and r.facility_id = ${sqlLiteral(site.facilityId, 'uuid')}
          and r.room_type_id = ${sqlLiteral(roomTypeId, 'uuid')} and r.archived_at is null
          and app_room_free(r.tenant_id, r.id, null, tstzrange(${sqlLiteral(startsAt, 'timestamptz')},
                                                              ${sqlLiteral(endsAt, 'timestamptz')}, '[)'))) as free`,
  );
}

/**
 * A quote for a choice at a site (`requireBookingSite`): whether a room of the type is free and what it costs, tax
 * as the facility says.
 */
export async function quote(input: {
  site: BookingSite;
  roomTypeId: string;
  choice: TStayChoice;
}): Promise<{ available: boolean; amountCents: number; currency: string }> {
  const { site } = input;
  const { window, quote: price } = priceChoice(site, input.roomTypeId, input.choice);
  const [free] = await runStatements({ role: 'app_service', tenantId: site.tenantId }, [
    freeRoomStatement(site, input.roomTypeId, window.startsAt, window.endsAt),
  ]);
  return { available: free[0]?.free ?? false, amountCents: price.amountCents, currency: site.facility.currency };
}
