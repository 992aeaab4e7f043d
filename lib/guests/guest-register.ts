import type { Statement } from '../db/tx';
import type { BodySlot } from '../http/upload-slots';
import type { RegistrationBody } from '../registration/registration-input';
import { replaceRegistration } from '../registration/guest-register';
import { requireGuestStay } from './get-guest-key';

/**
 * `PUT /api/guest/{token}/registration`: the link's stay, read as the guest (with `limit`, the request's rate limit
 * counted in that read), gets the body as its register (lib/registration/guest-register.ts). The body, which may
 * carry megabytes of passport photos, is read (`readBody`) only once the link is known to be live and the request
 * allowed — an unknown, rotated or expired link → 404, a request over the limit → 429, neither reading a byte of
 * it — and then inside `slot` (lib/http/upload-slots.ts), which bounds the large bodies a process holds at once.
 */
export async function putGuestRegistration(input: {
  token: string;
  readBody: () => Promise<RegistrationBody>;
  limit?: Statement<void>;
  slot?: BodySlot;
}): Promise<{ complete: boolean }> {
  const { stay } = await requireGuestStay(input.token, input.limit);
  const slot: BodySlot = input.slot ?? ((run) => run());
  return slot(async () => replaceRegistration(stay, await input.readBody()));
}
