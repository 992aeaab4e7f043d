import type { Statement } from '../db/tx';
import type { RegistrationBody } from '../registration/registration-input';
import { replaceRegistration } from '../registration/guest-register';
import { requireGuestStay } from './get-guest-key';

/**
 * `PUT /api/guest/{token}/registration`: the link's stay, read as the guest (with `limit`, the request's rate limit
 * counted in that read), gets the body as its register (lib/registration/guest-register.ts). The body, which may
 * carry megabytes of passport photos, is read (`readBody`) only once the link is known to be live and the request
 * allowed: an unknown, rotated or expired link → 404, a request over the limit → 429, neither reading a byte of it.
 */
export async function putGuestRegistration(
  token: string,
  readBody: () => Promise<RegistrationBody>,
  limit?: Statement<void>,
): Promise<{ complete: boolean }> {
  const { stay } = await requireGuestStay(token, limit);
  return replaceRegistration(stay, await readBody());
}
