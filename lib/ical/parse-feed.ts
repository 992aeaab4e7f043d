import ICAL from 'ical.js';
import { isTimeZone } from '../facilities/time-zones';
import { zonedLocalToInstant } from '../time/zoned-local';

/** One stay a feed describes: its UID, its window, and the words the channel put on it (never shown to guests). */
export type FeedEvent = { uid: string; startsAt: Date; endsAt: Date; summary: string };

/** How a facility turns an all-day event into a stay: its zone and its check-in and check-out times ("HH:MM"). */
export type StayTimes = { timeZone: string; checkInTime: string; checkOutTime: string };

export type ParsedFeed =
  { ok: true; events: FeedEvent[]; skipped: number } | { ok: false; reason: 'malformed' | 'not_a_calendar' };

const DATE = (t: ICAL.Time) =>
  `${String(t.year).padStart(4, '0')}-${String(t.month).padStart(2, '0')}-${String(t.day).padStart(2, '0')}`;

/**
 * The events of an RFC 5545 feed as stays: each VEVENT's UID is one stay; DTEND is exclusive (or DTSTART +
 * DURATION, or one day for an all-day event without either); all-day dates take the facility's check-in time on
 * the first day and its check-out time on the day DTEND names; timed events keep their instants (`instantOf`).
 * The feed's VTIMEZONEs serve this parse only: nothing goes into ical.js's process-wide TimezoneService, so one
 * tenant's feed never changes how another's reads. Cancelled events (STATUS:CANCELLED), events without a UID or
 * with an end not after their start are skipped (counted). A text that is not iCalendar is `malformed`; one whose
 * root is not a VCALENDAR is `not_a_calendar` — neither may cancel anything.
 */
export function parseFeed(text: string, times: StayTimes): ParsedFeed {
  let root: ICAL.Component;
  try {
    root = new ICAL.Component(ICAL.parse(text));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (root.name !== 'vcalendar') return { ok: false, reason: 'not_a_calendar' };
  const events = new Map<string, FeedEvent>();
  let skipped = 0;
  for (const component of root.getAllSubcomponents('vevent')) {
    const event = eventOf(component, times);
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
 * A timed value's instant. A TZID the feed defines reads by its VTIMEZONE (ical.js finds it in this feed's own
 * tree); any other TZID by the IANA zone it names, also after a vendor prefix (`/mozilla.org/20050126_1/Asia/Tokyo`)
 * — never by ical.js's process-wide registry, which other code could fill. A TZID that is neither, and a floating
 * time (no zone, no Z), is the facility's wall clock, not the server's.
 */
function instantOf(t: ICAL.Time, tzid: string | null, event: ICAL.Component, timeZone: string): Date | null {
  if (t.zone === ICAL.Timezone.utcTimezone) return t.toJSDate();
  if (tzid && t.zone === event.getTimeZoneByID(tzid)) return t.toJSDate();
  const hhmm = `${String(t.hour).padStart(2, '0')}:${String(t.minute).padStart(2, '0')}`;
  const at = zonedLocalToInstant(`${DATE(t)}T${hhmm}`, (tzid && ianaZone(tzid)) ?? timeZone);
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

function eventOf(component: ICAL.Component, times: StayTimes): FeedEvent | null {
  try {
    const uid = String(component.getFirstPropertyValue('uid') ?? '').trim();
    if (!uid || uid.length > 500) return null;
    if (String(component.getFirstPropertyValue('status') ?? '').toUpperCase() === 'CANCELLED') return null;
    const event = new ICAL.Event(component);
    const start = event.startDate;
    if (!start) return null;
    let end = component.hasProperty('dtend') || component.hasProperty('duration') ? event.endDate : null;
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
    const startsAt = instantOf(start, startTzid, component, times.timeZone);
    const endsAt = instantOf(end, endTzid, component, times.timeZone);
    if (!startsAt || !endsAt) return null;
    if (Number.isNaN(startsAt.getTime()) || Number.isNaN(endsAt.getTime()) || !(endsAt > startsAt)) return null;
    return { uid, startsAt, endsAt, summary };
  } catch {
    return null;
  }
}
