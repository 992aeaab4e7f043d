import { json, withRequest } from '@/lib/api/http';
import { openApiDocument } from '@/lib/api/openapi';

export const GET = withRequest(async ({ request, requestId }) =>
  json(openApiDocument(process.env.APP_URL || new URL(request.url).origin), {
    requestId,
    headers: { 'cache-control': 'public, max-age=300' },
  }),
);
