import ICAL from 'ical.js';
import { isTimeZone } from '../facilities/time-zones';
import { DATE_YEARS } from '../time/date-schemas';
import { zonedLocalToInstant } from '../time/zoned-local';

/** One stay a feed describes: its UID, its window, and the words the channel put on it (never shown to guests). */
export type FeedEvent = { uid: string; startsAt: Date; endsAt: Date; summary: string };

/** How a facility turns an all-day event into a stay: its zone and its check-in and check-out times ("HH:MM"). */
export type StayTimes = { timeZone: string; checkInTime: string; checkOutTime: string };

export type ParsedFeed =
  { ok: true; events: FeedEvent[]; skipped: number } | { ok: false; reason: 'malformed' | 'not_a_calendar' };

/**
 * What a feed's own VTIMEZONEs may cost to read. ical.js expands each observance step by step from its DTSTART up to
 * the year asked (and again for each later year), so a rule like FREQ=SECONDLY never ends and FREQ=DAILY from 1601
 * takes seconds — in a process every tenant shares. Real zones change on one weekday of one month a year, from 1601
 * at the earliest (Outlook's); `observances` counts every STANDARD, DAYLIGHT and RDATE value of the feed.
 */
const ZONE_LIMITS = { observances: 20, firstYear: 1600 } as const;
/** A yearly rule's one weekday within its month: `-1SU`, `2SU`, `SU`. */
const MONTH_WEEKDAY = /^[+-]?[1-5]?(SU|MO|TU|WE|TH|FR|SA)$/;

const DATE = (t: ICAL.Time) =>
  `${String(t.year).padStart(4, '0')}-${String(t.month).padStart(2, '0')}-${String(t.day).padStart(2, '0')}`;

/**
 * The events of an RFC 5545 feed as stays: each VEVENT's UID is one stay; DTEND is exclusive (or DTSTART +
 * DURATION, or one day for an all-day event without either); all-day dates take the facility's check-in time on
 * the first day and its check-out time on the day DTEND names; timed events keep their instants (`instantOf`).
 * The feed's VTIMEZONEs serve this parse only: nothing goes into ical.js's process-wide TimezoneService, so one
 * tenant's feed never changes how another's reads; those beyond `ZONE_LIMITS` are not read at all (their TZIDs
 * resolve like undefined ones). Cancelled events (STATUS:CANCELLED), events without a UID, with an end not after
 * their start or outside the years 2000–2100 are skipped (counted). A text that is not iCalendar is `malformed`;
 * one whose root is not a VCALENDAR is `not_a_calendar` — neither may cancel anything.
 */
export function parseFeed(text: string, times: StayTimes): ParsedFeed {
  let root: ICAL.Component;
  try {
    root = new ICAL.Component(ICAL.parse(text));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (root.name !== 'vcalendar') return { ok: false, reason: 'not_a_calendar' };
  keepCheapZones(root);
  const events = new Map<string, FeedEvent>();
  let skipped = 0;
  // The zone a TZID the feed does not define reads in, looked up once per TZID (a lookup costs Intl's time).
  const zones = new Map<string, string>();
  const zoneOf = (tzid: string | null) => {
    if (!tzid) return times.timeZone;
    if (!zones.has(tzid)) zones.set(tzid, ianaZone(tzid) ?? times.timeZone);
    return zones.get(tzid)!;
  };
  for (const component of root.getAllSubcomponents('vevent')) {
    const event = eventOf(component, times, zoneOf);
    if (!event) {
      skipped++;
      continue;
    }
    // The same UID twice (a recurrence override): the first is the stay.
    if (!events.has(event.uid)) events.set(event.uid, event);
    else skipped++;
  }
  return { ok: true, events: [...events.values()], skipped };
}

/**
 * Removes from this parse's tree the VTIMEZONEs beyond `ZONE_LIMITS`, then reads the rest once up to the last year
 * a stay may have, so no later event makes ical.js expand them again.
 */
function keepCheapZones(root: ICAL.Component): void {
  let budget: number = ZONE_LIMITS.observances;
  const last = ICAL.Time.fromData({ year: DATE_YEARS.last, month: 12, day: 31, hour: 23, minute: 59, second: 59 });
  for (const zone of root.getAllSubcomponents('vtimezone')) {
    const tzid = zone.getFirstPropertyValue('tzid');
    const cost = costOf(zone);
    if (typeof tzid !== 'string' || !tzid || cost === null || cost > budget) {
      root.removeSubcomponent(zone);
      continue;
    }
    budget -= cost;
    try {
      root.getTimeZoneByID(tzid)?.utcOffset(last);
    } catch {
      // A broken definition: the events in it are skipped, as ical.js fails on them again.
    }
  }
}

/**
 * How many observances (each STANDARD and DAYLIGHT, each RDATE value) a VTIMEZONE has, or null when one is not
 * cheap to expand: anything but a STANDARD or DAYLIGHT from `ZONE_LIMITS.firstYear` on, repeating at most yearly on
 * one weekday of one month.
 */
function costOf(zone: ICAL.Component): number | null {
  try {
    let cost = 0;
    for (const observance of zone.getAllSubcomponents()) {
      if (observance.name !== 'standard' && observance.name !== 'daylight') return null;
      const start = observance.getFirstPropertyValue('dtstart');
      if (!(start instanceof ICAL.Time) || start.year < ZONE_LIMITS.firstYear) return null;
      if (!observance.getAllProperties('rrule').every((rrule) => isYearlyOnOneDay(rrule.getFirstValue()))) return null;
      cost += 1;
      for (const rdate of observance.getAllProperties('rdate')) cost += rdate.getValues().length;
    }
    return cost;
  } catch {
    return null;
  }
}

function isYearlyOnOneDay(rule: unknown): boolean {
  if (!(rule instanceof ICAL.Recur) || rule.freq !== 'YEARLY' || rule.interval !== 1) return false;
  const { BYMONTH = [], BYDAY = [], ...others } = rule.parts;
  return (
    Object.keys(others).length === 0 &&
    BYMONTH.length <= 1 &&
    BYDAY.length <= BYMONTH.length &&
    BYDAY.every((day) => MONTH_WEEKDAY.test(day))
  );
}

/**
 * A timed value's instant. A TZID the feed defines reads by its VTIMEZONE (ical.js finds it in this feed's own
 * tree); any other TZID by the IANA zone it names, also after a vendor prefix (`/mozilla.org/20050126_1/Asia/Tokyo`)
 * — never by ical.js's process-wide registry, which other code could fill. A TZID that is neither, and a floating
 * time (no zone, no Z), is the facility's wall clock, not the server's.
 */
function instantOf(
  t: ICAL.Time,
  tzid: string | null,
  event: ICAL.Component,
  zoneOf: (tzid: string | null) => string,
): Date | null {
  if (t.zone === ICAL.Timezone.utcTimezone) return t.toJSDate();
  if (tzid && t.zone === event.getTimeZoneByID(tzid)) return t.toJSDate();
  const hhmm = `${String(t.hour).padStart(2, '0')}:${String(t.minute).padStart(2, '0')}`;
  const at = zonedLocalToInstant(`${DATE(t)}T${hhmm}`, zoneOf(tzid));
  return at && new Date(at.getTime() + t.second * 1000);
}

/** The IANA zone a TZID names, itself or after a globally unique prefix (RFC 5545 3.2.19: a leading "/"), or null. */
function ianaZone(tzid: string): string | null {
  if (isTimeZone(tzid)) return tzid;
  if (!tzid.startsWith('/')) return null;
  // "/vendor/version/Area/Location": the longest tail after the vendor that IANA knows.
  const parts = tzid.split('/').slice(2);
  for (let i = 0; i < parts.length; i++) {
    const name = parts.slice(i).join('/');
    if (isTimeZone(name)) return name;
  }
  return null;
}

/** The TZID parameter of an event's property, if it has one. */
function tzidOf(component: ICAL.Component, name: string): string | null {
  const tzid = component.getFirstProperty(name)?.getParameter('tzid');
  return typeof tzid === 'string' && tzid ? tzid : null;
}

function eventOf(
  component: ICAL.Component,
  times: StayTimes,
  zoneOf: (tzid: string | null) => string,
): FeedEvent | null {
  try {
    const uid = String(component.getFirstPropertyValue('uid') ?? '').trim();
    if (!uid || uid.length > 500) return null;
    if (String(component.getFirstPropertyValue('status') ?? '').toUpperCase() === 'CANCELLED') return null;
    const event = new ICAL.Event(component);
    const start = event.startDate;
    if (!start) return null;
    let end = component.hasProperty('dtend') || component.hasProperty('duration') ? event.endDate : null;
    if (![start, end ?? start].every((t) => t.year >= DATE_YEARS.first && t.year <= DATE_YEARS.last)) return null;
    const summary = String(component.getFirstPropertyValue('summary') ?? '').slice(0, 200);
    if (start.isDate) {
      if (!end) {
        end = start.clone();
        end.adjust(1, 0, 0, 0);
      }
      const startsAt = zonedLocalToInstant(`${DATE(start)}T${times.checkInTime}`, times.timeZone);
      const endsAt = zonedLocalToInstant(`${DATE(end)}T${times.checkOutTime}`, times.timeZone);
      if (!startsAt || !endsAt || !(endsAt > startsAt)) return null;
      return { uid, startsAt, endsAt, summary };
    }
    if (!end) return null;
    const startTzid = tzidOf(component, 'dtstart');
    // An end computed from DURATION is in DTSTART's zone.
    const endTzid = component.hasProperty('dtend') ? tzidOf(component, 'dtend') : startTzid;
    const startsAt = instantOf(start, startTzid, component, zoneOf);
    const endsAt = instantOf(end, endTzid, component, zoneOf);
    if (!startsAt || !endsAt) return null;
    if (Number.isNaN(startsAt.getTime()) || Number.isNaN(endsAt.getTime()) || !(endsAt > startsAt)) return null;
    return { uid, startsAt, endsAt, summary };
  } catch {
    return null;
  }
}
