import { json, withRequest } from '@/lib/api/http';
import { getGuestKey } from '@/lib/guest/get-guest-key';
import { clientAddress, limitGuestKeyRequest } from '@/lib/guest/guest-rate-limits';

export const dynamic = 'force-dynamic';

export const POST = withRequest<{ token: string }>(async ({ request, requestId }, { token }) => {
  await limitGuestKeyRequest(token, clientAddress(request));
  return json({ data: await getGuestKey(token) }, { requestId });
});
