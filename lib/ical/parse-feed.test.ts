import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { parseFeed } from './parse-feed';

const TIMES = { timeZone: 'Asia/Tokyo', checkInTime: '15:00', checkOutTime: '10:00' };

const feed = (...events: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Airbnb Inc//Hosting Calendar 1.0//EN', ...events, 'END:VCALENDAR'].join(
    '\r\n',
  );
const vevent = (...lines: string[]) => ['BEGIN:VEVENT', ...lines, 'END:VEVENT'].join('\r\n');
/** A VTIMEZONE with one fixed offset (`-1000`, `+0530`). */
const vtimezone = (tzid: string, offset: string) =>
  [
    'BEGIN:VTIMEZONE',
    `TZID:${tzid}`,
    'BEGIN:STANDARD',
    'DTSTART:19700101T000000',
    `TZOFFSETFROM:${offset}`,
    `TZOFFSETTO:${offset}`,
    'END:STANDARD',
    'END:VTIMEZONE',
  ].join('\r\n');
const instants = (parsed: ReturnType<typeof parseFeed>) =>
  parsed.ok ? parsed.events.map((e) => [e.uid, e.startsAt.toISOString(), e.endsAt.toISOString()]) : parsed;
/** Tenant A's feed: it re-defines Asia/Tokyo and UTC at -10:00, and names a zone of its own. */
const HOSTILE = feed(
  vtimezone('Asia/Tokyo', '-1000'),
  vtimezone('UTC', '-1000'),
  vtimezone('Hotel/Front-Desk', '-1000'),
  vevent('UID:a-tokyo', 'DTSTART;TZID=Asia/Tokyo:20270110T150000', 'DTEND;TZID=Asia/Tokyo:20270111T100000'),
  vevent('UID:a-utc', 'DTSTART;TZID=UTC:20270110T150000', 'DURATION:PT19H'),
  vevent('UID:a-own', 'DTSTART;TZID=Hotel/Front-Desk:20270110T150000', 'DTEND;TZID=Hotel/Front-Desk:20270111T100000'),
);

describe('parseFeed', () => {
  it('reads all-day events as stays from check-in on the first day to check-out on DTEND (exclusive)', () => {
    const parsed = parseFeed(
      feed(
        vevent('UID:abc@airbnb.com', 'DTSTART;VALUE=DATE:20270110', 'DTEND;VALUE=DATE:20270113', 'SUMMARY:Reserved'),
      ),
      TIMES,
    );
    expect(parsed).toEqual({
      ok: true,
      skipped: 0,
      events: [
        {
          uid: 'abc@airbnb.com',
          startsAt: new Date('2027-01-10T06:00:00Z'),
          endsAt: new Date('2027-01-13T01:00:00Z'),
          summary: 'Reserved',
        },
      ],
    });
  });

  it('keeps timed events at their instants: UTC, a TZID the feed defines, and floating times in the facility’s zone', () => {
    const parsed = parseFeed(
      feed(
        [
          'BEGIN:VTIMEZONE',
          'TZID:Europe/Paris',
          'BEGIN:STANDARD',
          'DTSTART:19701025T030000',
          'TZOFFSETFROM:+0200',
          'TZOFFSETTO:+0100',
          'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
          'END:STANDARD',
          'BEGIN:DAYLIGHT',
          'DTSTART:19700329T020000',
          'TZOFFSETFROM:+0100',
          'TZOFFSETTO:+0200',
          'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
          'END:DAYLIGHT',
          'END:VTIMEZONE',
        ].join('\r\n'),
        vevent('UID:utc', 'DTSTART:20270110T050000Z', 'DTEND:20270111T010000Z'),
        vevent('UID:paris', 'DTSTART;TZID=Europe/Paris:20270110T150000', 'DTEND;TZID=Europe/Paris:20270111T110000'),
        vevent('UID:floating', 'DTSTART:20270110T150000', 'DURATION:PT19H'),
      ),
      TIMES,
    );
    expect(parsed.ok && parsed.events.map((e) => [e.uid, e.startsAt.toISOString(), e.endsAt.toISOString()])).toEqual([
      ['utc', '2027-01-10T05:00:00.000Z', '2027-01-11T01:00:00.000Z'],
      ['paris', '2027-01-10T14:00:00.000Z', '2027-01-11T10:00:00.000Z'],
      ['floating', '2027-01-10T06:00:00.000Z', '2027-01-11T01:00:00.000Z'],
    ]);
  });

  it('skips events without a UID, cancelled ones, ends not after starts, and a repeated UID', () => {
    const parsed = parseFeed(
      feed(
        vevent('DTSTART;VALUE=DATE:20270110', 'DTEND;VALUE=DATE:20270111'),
        vevent('UID:gone', 'STATUS:CANCELLED', 'DTSTART;VALUE=DATE:20270110', 'DTEND;VALUE=DATE:20270111'),
        vevent('UID:backwards', 'DTSTART:20270110T050000Z', 'DTEND:20270110T040000Z'),
        vevent('UID:one-day', 'DTSTART;VALUE=DATE:20270120'),
        vevent('UID:one-day', 'DTSTART;VALUE=DATE:20270125'),
      ),
      TIMES,
    );
    expect(parsed).toMatchObject({ ok: true, skipped: 4, events: [{ uid: 'one-day' }] });
    if (parsed.ok) expect(parsed.events[0]!.endsAt.toISOString()).toBe('2027-01-21T01:00:00.000Z');
  });

  it('says a text that is not iCalendar is malformed, and an empty calendar has no events', () => {
    expect(parseFeed('<html>Sign in</html>', TIMES)).toEqual({ ok: false, reason: 'malformed' });
    expect(parseFeed('', TIMES)).toMatchObject({ ok: false });
    expect(parseFeed(['BEGIN:VEVENT', 'UID:x', 'END:VEVENT'].join('\r\n'), TIMES)).toEqual({
      ok: false,
      reason: 'not_a_calendar',
    });
    expect(parseFeed(feed(), TIMES)).toEqual({ ok: true, events: [], skipped: 0 });
  });

  it('reads a feed’s own VTIMEZONEs for that parse only: another tenant’s TZIDs resolve from IANA, else floating', () => {
    // Tenant A's zones read by A's definitions.
    expect(instants(parseFeed(HOSTILE, TIMES))).toEqual([
      ['a-tokyo', '2027-01-11T01:00:00.000Z', '2027-01-11T20:00:00.000Z'],
      ['a-utc', '2027-01-11T01:00:00.000Z', '2027-01-11T20:00:00.000Z'],
      ['a-own', '2027-01-11T01:00:00.000Z', '2027-01-11T20:00:00.000Z'],
    ]);
    // Tenant B, later in the same process, in Paris: none of A's zones.
    const parsed = parseFeed(
      feed(
        vtimezone('Hotel/Front-Desk', '+0530'),
        vevent('UID:b-tokyo', 'DTSTART;TZID=Asia/Tokyo:20270110T150000', 'DTEND;TZID=Asia/Tokyo:20270111T100000'),
        vevent('UID:b-utc', 'DTSTART;TZID=UTC:20270110T150000', 'DTEND;TZID=UTC:20270111T100000'),
        vevent('UID:b-own', 'DTSTART;TZID=Hotel/Front-Desk:20270110T150000', 'DURATION:PT19H'),
        vevent('UID:b-duration', 'DTSTART;TZID=Asia/Tokyo:20270110T150030', 'DURATION:P1DT1H'),
        vevent(
          'UID:b-mozilla',
          'DTSTART;TZID=/mozilla.org/20050126_1/Asia/Tokyo:20270110T150000',
          'DTEND;TZID=/citadel.org/20190914_1/Europe/Berlin:20270111T100000',
        ),
        vevent(
          'UID:b-unknown',
          'DTSTART;TZID=Nowhere/Nothing:20270110T150000',
          'DTEND;TZID=/x.org/1/Nowhere:20270111T100000',
        ),
      ),
      { ...TIMES, timeZone: 'Europe/Paris' },
    );
    expect(instants(parsed)).toEqual([
      ['b-tokyo', '2027-01-10T06:00:00.000Z', '2027-01-11T01:00:00.000Z'],
      ['b-utc', '2027-01-10T15:00:00.000Z', '2027-01-11T10:00:00.000Z'],
      ['b-own', '2027-01-10T09:30:00.000Z', '2027-01-11T04:30:00.000Z'],
      ['b-duration', '2027-01-10T06:00:30.000Z', '2027-01-11T07:00:30.000Z'],
      ['b-mozilla', '2027-01-10T06:00:00.000Z', '2027-01-11T09:00:00.000Z'],
      // Neither the feed's nor IANA's: the facility's wall clock, as a floating time.
      ['b-unknown', '2027-01-10T14:00:00.000Z', '2027-01-11T09:00:00.000Z'],
    ]);
  });

  it('leaves the process-wide ical.js time zone registry as it was', () => {
    const before = { count: ICAL.TimezoneService.count, utc: ICAL.TimezoneService.get('UTC') };
    parseFeed(HOSTILE, TIMES);
    expect(ICAL.TimezoneService.count).toBe(before.count);
    expect(ICAL.TimezoneService.get('UTC')).toBe(before.utc);
    expect(ICAL.TimezoneService.has('Asia/Tokyo')).toBe(false);
    expect(ICAL.TimezoneService.has('Hotel/Front-Desk')).toBe(false);
  });

  it('reads only VTIMEZONEs that are cheap to read, and only stays in 2000–2100, so no feed can stall the process', () => {
    // ical.js expands an observance step by step from its DTSTART: daily from 1970, or every day of every year
    // from 1601, takes seconds (FREQ=SECONDLY never ends). Such a zone is not read; its TZID resolves from IANA.
    const zone = (tzid: string, start: string, offset: string, rule: string) =>
      [
        'BEGIN:VTIMEZONE',
        `TZID:${tzid}`,
        'BEGIN:STANDARD',
        `DTSTART:${start}`,
        `TZOFFSETFROM:${offset}`,
        `TZOFFSETTO:${offset}`,
        `RRULE:${rule}`,
        'END:STANDARD',
        'END:VTIMEZONE',
      ].join('\r\n');
    const at = (uid: string, tzid: string, start: string) =>
      vevent(`UID:${uid}`, `DTSTART;TZID=${tzid}:${start}`, 'DURATION:PT19H');
    const began = Date.now();
    const parsed = parseFeed(
      feed(
        zone('Asia/Tokyo', '19700101T000000', '-1000', 'FREQ=DAILY'),
        zone('Europe/Paris', '16010101T000000', '-1000', 'FREQ=YEARLY;BYDAY=MO,TU,WE,TH,FR,SA,SU'),
        // Outlook's way: a Windows name, rules from 1601.
        zone('Tokyo Standard Time', '16010101T000000', '+0900', 'FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10'),
        at('daily', 'Asia/Tokyo', '20270110T150000'),
        at('every-day', 'Europe/Paris', '20270110T150000'),
        at('outlook', 'Tokyo Standard Time', '20270110T150000'),
        at('far', 'Tokyo Standard Time', '99990110T150000'),
        at('early', 'Tokyo Standard Time', '19990110T150000'),
      ),
      TIMES,
    );
    expect(Date.now() - began).toBeLessThan(1000);
    expect(parsed).toMatchObject({ ok: true, skipped: 2 });
    expect(instants(parsed)).toEqual([
      ['daily', '2027-01-10T06:00:00.000Z', '2027-01-11T01:00:00.000Z'],
      ['every-day', '2027-01-10T14:00:00.000Z', '2027-01-11T09:00:00.000Z'],
      ['outlook', '2027-01-10T06:00:00.000Z', '2027-01-11T01:00:00.000Z'],
    ]);
  });

  it('reads at most 20 observances of a feed’s own zones; the TZIDs past them float', () => {
    const zones = Array.from({ length: 21 }, (_, i) => vtimezone(`Hotel/Zone-${i}`, '+0300'));
    const parsed = parseFeed(
      feed(
        ...zones,
        vevent('UID:20th', 'DTSTART;TZID=Hotel/Zone-19:20270110T150000', 'DURATION:PT1H'),
        vevent('UID:21st', 'DTSTART;TZID=Hotel/Zone-20:20270110T150000', 'DURATION:PT1H'),
      ),
      TIMES,
    );
    expect(instants(parsed)).toEqual([
      ['20th', '2027-01-10T12:00:00.000Z', '2027-01-10T13:00:00.000Z'],
      ['21st', '2027-01-10T06:00:00.000Z', '2027-01-10T07:00:00.000Z'],
    ]);
  });
});
