import { notFoundHandler } from '@/lib/api/http';

// Any other address under /api/webhooks (these routes skip the proxy): a JSON 404 with a request id.
export const dynamic = 'force-dynamic';
export const GET = notFoundHandler;
export const POST = notFoundHandler;
export const PUT = notFoundHandler;
export const PATCH = notFoundHandler;
export const DELETE = notFoundHandler;
export const OPTIONS = notFoundHandler;
