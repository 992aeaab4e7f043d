import { json, methodsNotAllowed, withRequest } from '@/lib/api/http';

// The emptiest route handlers, wrapped like every API route: the baselines the webhook benchmark
// compares its throughput with. Like the webhook routes, this route skips the proxy.

export const GET = withRequest(async ({ requestId }) => json({}, { requestId }));

/** Answers without reading the body: what any POST costs in this server before the handler's own work. */
export const POST = GET;

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['GET', 'POST']);
