import type { Statement } from '../db/tx';
import { requestStayExtension, type TExtensionResult } from '../stays/extend-stay';
import { requireGuestStay } from './get-guest-key';

/**
 * `POST /api/guest/{token}/extension`: the link's stay, read as the guest (its rate limit counted in the same read),
 * extended by lib/stays/extend-stay.ts. An unknown, rotated or expired link → 404.
 */
export async function extendAsGuest(token: string, body: unknown, limit?: Statement<void>): Promise<TExtensionResult> {
  const read = await requireGuestStay(token, limit);
  return requestStayExtension({ token, stay: read.stay }, body);
}
