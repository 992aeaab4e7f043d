import { z } from 'zod';

/**
 * A guest's email as the API takes it: one plain address (no display name, no list, no line break),
 * at most 320 characters. Every path that stores a guest's email checks it with this schema, so a
 * mail is never addressed to more people than the guest (a comma) or given extra headers (CR/LF);
 * the database refuses the same shapes (`guests_email_one_address`).
 */
export const ZGuestEmailSchema = z.email().max(320);

/**
 * A guest email from a booking provider, trimmed and checked as the API checks one: null when it is
 * not one plain address. The booking still happens; its guest just gets no mail.
 */
export function providerGuestEmail(value: string | null | undefined): string | null {
  const parsed = ZGuestEmailSchema.safeParse(value?.trim());
  return parsed.success ? parsed.data : null;
}
