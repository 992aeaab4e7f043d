import type { Statement } from '../db/tx';
import type { RegistrationBody } from '../registration/registration-input';
import { replaceRegistration } from '../registration/guest-register';
import { requireGuestStay } from './get-guest-key';

/**
 * `PUT /api/guest/{token}/registration`: the link's stay, read as the guest (with `limit`, the request's rate limit
 * counted in that read), gets `body` as its register (lib/registration/guest-register.ts). An unknown, rotated or
 * expired link → 404.
 */
export async function putGuestRegistration(
  token: string,
  body: RegistrationBody,
  limit?: Statement<void>,
): Promise<{ complete: boolean }> {
  const read = await requireGuestStay(token, limit);
  return replaceRegistration(read.stay, body);
}
