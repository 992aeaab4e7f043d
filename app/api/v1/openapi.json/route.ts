import { json, withRequest } from '@/lib/api/http';
import { openApiDocument } from '@/lib/api/openapi';

// The server in the document is relative (/api/v1): read from this address, it is this address's API.
export const GET = withRequest(async ({ requestId }) =>
  json(openApiDocument(), {
    requestId,
    headers: { 'cache-control': 'public, max-age=300' },
  }),
);
