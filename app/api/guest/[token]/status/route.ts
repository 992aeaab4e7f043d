import { json, methodsNotAllowed, withRequest } from '@/lib/api/http';
import { AppError } from '@/lib/errors';
import { getGuestStatus } from '@/lib/guests/get-guest-key';
import { guestStatusLimit } from '@/lib/guests/guest-rate-limits';
import { clientAddress } from '@/lib/http/client-address';
import { etagOf, matchesIfNoneMatch } from '@/lib/http/etag';

/** The open key page's poll: the stay and its key, read only, its rate limit counted in the same round trip; 304 when nothing changed since the page's ETag. */
export const GET = withRequest<{ token: string }>(async ({ request, requestId }, { token }) => {
  const status = await getGuestStatus(token, { limit: guestStatusLimit(token, clientAddress(request)) });
  if (!status) throw new AppError('not_found', 'This key link is unknown or has expired.');
  const body = { data: status };
  const etag = etagOf(JSON.stringify(body));
  if (matchesIfNoneMatch(request, etag)) {
    return new Response(null, { status: 304, headers: { etag, 'cache-control': 'no-store' } });
  }
  return json(body, { requestId, headers: { etag } });
});

// This route skips the proxy (proxy.ts) and is in the web server's fast lane: other methods get
// their 405 here, with a request id.
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['GET']);
