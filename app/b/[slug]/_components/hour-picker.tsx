'use client';

import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Field, Select } from '@/components/ui/field';
import { endSteps, MAX_HOURS, minutesOf, nowMinutesIn, startSteps, timeSteps } from '../_lib/time-steps';
import { formatClock } from '../_lib/format';
import type { BookingWords } from './booking-words';

type Props = {
  day: string;
  today: string;
  timeZone: string;
  opensAt: string | null;
  closesAt: string | null;
  initialFrom: string | null;
  initialTo: string | null;
  onShow: (from: string, to: string) => void;
  tag: string;
  words: BookingWords;
};

/** Start and end of an hourly booking on one day, in 15-minute steps inside opening hours (not yet past today), at most 12 hours. */
export function HourPicker({
  day,
  today,
  timeZone,
  opensAt,
  closesAt,
  initialFrom,
  initialTo,
  onShow,
  tag,
  words,
}: Props) {
  const id = useId();
  const steps = timeSteps(opensAt, closesAt);
  // A quarter hour's grace: a start this minute is already past.
  const starts = startSteps(steps, day === today ? nowMinutesIn(timeZone) : null);
  const [from, setFrom] = useState(initialFrom && starts.includes(initialFrom) ? initialFrom : (starts[0] ?? ''));
  const ends = from ? endSteps(steps, from, MAX_HOURS * 60) : [];
  const [to, setTo] = useState(initialTo ?? '');
  const end = ends.includes(to) ? to : (ends.find((s) => minutesOf(s)! >= minutesOf(from)! + 60) ?? ends[0] ?? '');

  if (starts.length === 0)
    return (
      <p className="book-empty" role="status" data-testid="time-none">
        {words.time.none}
      </p>
    );
  return (
    <form
      className="book-times"
      onSubmit={(event) => {
        event.preventDefault();
        if (from && end) onShow(from, end);
      }}
    >
      <Field id={`${id}-from`} label={words.time.start}>
        {(control) => (
          <Select {...control} value={from} onChange={(e) => setFrom(e.target.value)} data-testid="time-from">
            {starts.map((s) => (
              <option key={s} value={s}>
                {formatClock(tag, s)}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field id={`${id}-to`} label={words.time.end}>
        {(control) => (
          <Select {...control} value={end} onChange={(e) => setTo(e.target.value)} data-testid="time-to">
            {ends.map((s) => (
              <option key={s} value={s}>
                {formatClock(tag, s)}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Button type="submit" variant="primary" size="large" block disabled={!from || !end}>
        {words.time.show}
      </Button>
    </form>
  );
}
