import { z } from 'zod';

/** The parts of a Stripe event every handler reads; the rest of the payload is kept but not trusted. */
export const ZStripeEventSchema = z.object({
  id: z.string(),
  type: z.string(),
  created: z.number(),
  account: z.string().nullish(),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});
export type TStripeEvent = z.infer<typeof ZStripeEventSchema>;

export function eventTime(event: TStripeEvent): Date {
  return new Date(event.created * 1000);
}
