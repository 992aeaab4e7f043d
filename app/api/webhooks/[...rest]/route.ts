import { notFoundHandlers } from '@/lib/api/http';

// Any other address under /api/webhooks (these routes skip the proxy): a JSON 404 with a request id.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = notFoundHandlers;
