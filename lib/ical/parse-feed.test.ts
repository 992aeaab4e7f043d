import { describe, expect, it } from 'vitest';
import { parseFeed } from './parse-feed';

const TIMES = { timeZone: 'Asia/Tokyo', checkInTime: '15:00', checkOutTime: '10:00' };

const feed = (...events: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Airbnb Inc//Hosting Calendar 1.0//EN', ...events, 'END:VCALENDAR'].join(
    '\r\n',
  );
const vevent = (...lines: string[]) => ['BEGIN:VEVENT', ...lines, 'END:VEVENT'].join('\r\n');

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
});
