import { json, withRequest } from '@/lib/api/http';
import { getGuestKey } from '@/lib/guest/get-guest-key';
import { limitGuestKeyRequest } from '@/lib/guest/guest-rate-limits';
import { clientAddress } from '@/lib/http/client-address';

export const dynamic = 'force-dynamic';

export const POST = withRequest<{ token: string }>(async ({ request, requestId }, { token }) => {
  await limitGuestKeyRequest(token, clientAddress(request));
  return json({ data: await getGuestKey(token) }, { requestId });
});
