import type { BookingUnit } from '../db/generated/enums';

const UNIT_MS: Record<BookingUnit, number> = { night: 86_400_000, hour: 3_600_000 };

/** How many of a rate's units `[startsAt, endsAt)` counts: begun hours, or nights by the day (at least one). */
export function unitsOf(unit: BookingUnit, startsAt: Date, endsAt: Date): number {
  return Math.max(1, Math.ceil((endsAt.getTime() - startsAt.getTime()) / UNIT_MS[unit]));
}

/** What one reservation costs at its room's rate: the rate times the units of its window. */
export function stayAmountCents(input: { rateCents: number; rateUnit: BookingUnit; startsAt: Date; endsAt: Date }) {
  return input.rateCents * unitsOf(input.rateUnit, input.startsAt, input.endsAt);
}
