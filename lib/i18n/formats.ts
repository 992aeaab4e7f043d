import type { Formats } from 'next-intl';

/**
 * The named formats of the product, one rule everywhere: an instant is a medium date and a short
 * time ("30 Nov 2026, 15:00"), a day is a medium date, and a range of either is written by Intl's
 * range formatting ("30 Nov 2026, 15:00 – 1 Dec 2026, 11:00"), always in the zone the caller names
 * — the facility's for anything that happens at a door.
 */
export const formats = {
  dateTime: {
    stamp: { dateStyle: 'medium', timeStyle: 'short' },
    day: { dateStyle: 'medium' },
    time: { timeStyle: 'short' },
  },
} as const satisfies Formats;
