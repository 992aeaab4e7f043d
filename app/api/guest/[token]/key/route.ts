import { json, withRequest } from '@/lib/api/http';
import { getGuestKey } from '@/lib/guests/get-guest-key';
import { limitGuestKeyRequest } from '@/lib/guests/guest-rate-limits';
import { clientAddress } from '@/lib/http/client-address';

export const POST = withRequest<{ token: string }>(async ({ request, requestId }, { token }) => {
  await limitGuestKeyRequest(token, clientAddress(request));
  return json({ data: await getGuestKey(token) }, { requestId });
});
