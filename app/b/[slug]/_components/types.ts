import type { createBookingRequest, TConfirmation } from '@/lib/booking-site/booking-requests';
import type { Level } from '../_lib/calendar';

/** What the guest has picked so far, read from the page's URL (so the back button walks the steps). */
export type Choice =
  | { unit: 'night'; checkIn: string; checkOut: string }
  | { unit: 'hour'; day: string; from: string; to: string; startsAt: string; endsAt: string };

/** The period of a choice as the quote and booking-request bodies take it. */
export function periodOf(choice: Choice) {
  return choice.unit === 'night'
    ? { checkIn: choice.checkIn, checkOut: choice.checkOut }
    : { startsAt: choice.startsAt, endsAt: choice.endsAt };
}

/** A stable text of a choice, for query keys. */
export const choiceKey = (choice: Choice) =>
  choice.unit === 'night' ? `${choice.checkIn}/${choice.checkOut}` : `${choice.startsAt}/${choice.endsAt}`;

export type Quote = { available: boolean; amountCents: number; currency: string };
/** The public API's answers, typed as the server writes them. */
export type BookingRequest = Awaited<ReturnType<typeof createBookingRequest>>;
export type Confirmation = TConfirmation;
export type GuestDetails = { name: string; email: string; phone: string; acceptTerms: boolean };
export type { Level };
