import { json, withRequest } from '@/lib/api/http';
import { getGuestKey } from '@/lib/guests/get-guest-key';
import { guestKeyLimit } from '@/lib/guests/guest-rate-limits';
import { clientAddress } from '@/lib/http/client-address';

/** The key a guest link opens; the rate limit is counted in the link's read (one round trip). */
export const POST = withRequest<{ token: string }>(async ({ request, requestId }, { token }) => {
  return json({ data: await getGuestKey(token, guestKeyLimit(token, clientAddress(request))) }, { requestId });
});
