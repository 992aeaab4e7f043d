'use client';

import type { KeyboardEvent } from 'react';
import { Button } from '@/components/ui/button';
import { fill } from '@/lib/i18n/slots';
import { addDays, dayLevel, monthGrid, type DayAvailability } from '../_lib/calendar';
import { formatDay, formatMonth, weekdayNames } from '../_lib/format';
import { dayLabel, isClosedLevel, LEVEL_MARK } from '../_lib/levels';
import type { BookingWords } from './booking-words';

type Props = {
  month: string;
  /** Availability of the days loaded so far (this month's and the next). */
  byDay: ReadonlyMap<string, DayAvailability>;
  loading: boolean;
  /** Picking a check-in or a single day (`start`), or a check-out after `checkIn` up to `latest`. */
  mode: 'start' | 'checkOut';
  checkIn: string | null;
  checkOut: string | null;
  latest: string | null;
  /** The facility's today: no month before its month. */
  today: string;
  onPick: (day: string) => void;
  onMonth: (step: -1 | 1) => void;
  tag: string;
  weekStart: 0 | 1;
  words: BookingWords;
};

/**
 * A month as a grid of day buttons, each showing its availability in colour and with a mark
 * (○ △ × –) and saying it in its accessible name. Full and past days are disabled for a start; for a
 * check-out, days up to the last night some room type has free (the night of the check-out itself
 * may be full). Arrow keys move between days.
 */
export function MonthCalendar(props: Props) {
  const { month, byDay, loading, mode, checkIn, checkOut, latest, today, tag, weekStart, words } = props;
  const weekdays = weekdayNames(tag, weekStart);
  const grid = monthGrid(month, weekStart);
  const title = formatMonth(tag, month);

  const stateOf = (day: string) => {
    const level = dayLevel(byDay.get(day)) ?? (day < today ? 'past' : null);
    let enabled: boolean;
    let role: string | undefined;
    if (mode === 'checkOut' && checkIn) {
      // A day after the check-in ends the stay; one before or on it picks a new check-in.
      if (day > checkIn) {
        enabled = latest === null || day <= latest;
        if (!enabled) role = words.calendar.tooLong;
      } else {
        enabled = !isClosedLevel(level) && level !== null;
        if (day === checkIn) role = words.calendar.roleCheckIn;
      }
    } else {
      enabled = !isClosedLevel(level) && level !== null;
    }
    if (checkIn && checkOut) {
      if (day === checkIn) role = words.calendar.roleCheckIn;
      else if (day === checkOut) role = words.calendar.roleCheckOut;
      else if (day > checkIn && day < checkOut) role = words.calendar.roleInStay;
    }
    const selected = day === checkIn || day === checkOut;
    const inRange = !!checkIn && !!checkOut && day > checkIn && day < checkOut;
    return { level, enabled, role, selected, inRange };
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 }[event.key];
    const from = (event.target as HTMLElement).dataset.day;
    if (!step || !from) return;
    event.preventDefault();
    // The next enabled day in that direction within this month.
    for (let day = addDays(from, step); day.startsWith(month); day = addDays(day, step)) {
      const target = event.currentTarget.querySelector<HTMLButtonElement>(`[data-day="${day}"]`);
      if (target && !target.disabled) {
        target.focus();
        return;
      }
    }
  };

  const freeDays = grid.flat().filter((d): d is string => !!d && !isClosedLevel(dayLevel(byDay.get(d))));
  const nothingFree = !loading && grid.flat().some((d) => d && byDay.has(d)) && freeDays.length === 0;

  return (
    <div className="cal" aria-busy={loading || undefined}>
      <div className="cal__head">
        <Button
          size="compact"
          onClick={() => props.onMonth(-1)}
          disabled={month <= today.slice(0, 7)}
          aria-label={words.calendar.previous}
          data-testid="cal-previous"
        >
          <span aria-hidden="true">‹</span>
        </Button>
        <h3 className="cal__title" id="cal-title" aria-live="polite">
          {title}
        </h3>
        <Button size="compact" onClick={() => props.onMonth(1)} aria-label={words.calendar.next} data-testid="cal-next">
          <span aria-hidden="true">›</span>
        </Button>
      </div>
      {loading && (
        <p className="cal__loading" role="status">
          <span className="spinner" aria-hidden="true" /> {words.calendar.loading}
        </p>
      )}
      <div role="group" aria-labelledby="cal-title" className="cal__grid" onKeyDown={onKeyDown}>
        {weekdays.map((w) => (
          <abbr key={w.long} title={w.long} className="cal__weekday" aria-hidden="true">
            {w.short}
          </abbr>
        ))}
        {grid.flat().map((day, index) => {
          if (!day) return <span key={`empty-${index}`} className="cal__empty" aria-hidden="true" />;
          const state = stateOf(day);
          const level = state.level;
          return (
            <button
              key={day}
              type="button"
              data-day={day}
              data-level={level ?? 'unknown'}
              data-testid="cal-day"
              className={[
                'cal__day',
                `cal__day--${level ?? 'unknown'}`,
                state.selected && 'cal__day--selected',
                state.inRange && 'cal__day--range',
              ]
                .filter(Boolean)
                .join(' ')}
              disabled={!state.enabled}
              aria-pressed={state.selected}
              aria-label={dayLabel(formatDay(tag, day, 'long'), level, words.level, state.role)}
              onClick={() => props.onPick(day)}
            >
              <span className="cal__num">{Number(day.slice(8))}</span>
              <span className="cal__mark" aria-hidden="true">
                {level ? LEVEL_MARK[level] : '·'}
              </span>
            </button>
          );
        })}
      </div>
      <p className="cal__legend">
        <span className="visually-hidden">{words.calendar.legend}: </span>
        {(['available', 'few', 'full', 'past'] as const).map((level) => (
          <span key={level} className={`cal__key cal__key--${level}`}>
            <span aria-hidden="true" className="cal__key-mark">
              {LEVEL_MARK[level]}
            </span>{' '}
            {words.level[level]}
          </span>
        ))}
      </p>
      {nothingFree && (
        <p className="book-empty" role="status" data-testid="cal-nothing-free">
          {fill(words.calendar.nothingFree, { month: title })}
        </p>
      )}
    </div>
  );
}
