import type { Statement } from '../db/tx';
import { AppError } from '../errors';
import { requestStayExtension, type TExtensionResult } from '../stays/extend-stay';
import { readGuestStay } from './get-guest-key';

/**
 * `POST /api/guest/{token}/extension`: the link's stay, read as the guest (its rate limit counted in the same read),
 * extended by lib/stays/extend-stay.ts. An unknown, rotated or expired link → 404.
 */
export async function extendAsGuest(token: string, body: unknown, limit?: Statement<void>): Promise<TExtensionResult> {
  const read = await readGuestStay(token, limit);
  if (read?.refused) throw read.refused;
  if (!read) throw new AppError('not_found', 'This key link is unknown or has expired.');
  return requestStayExtension({ token, stay: read.stay }, body);
}
