import type { Statement } from '../db/tx';
import { AppError } from '../errors';
import type { RegistrationBody } from '../registration/registration-input';
import { replaceRegistration } from '../registration/guest-register';
import { readGuestStay } from './get-guest-key';

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
  const read = await readGuestStay(token, limit);
  if (read?.refused) throw read.refused;
  if (!read) throw new AppError('not_found', 'This key link is unknown or has expired.');
  return replaceRegistration(read.stay, body);
}
