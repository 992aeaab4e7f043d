import type { Instrumentation } from 'next';

/**
 * One log line per error Next.js catches while rendering a page or running a server action, with
 * the request id (proxy.ts) and the error's digest: the error pages show both, so support finds
 * the line from what a user reads out. The route's pattern is logged, never the path, which
 * can carry a guest link's token.
 */
export const onRequestError: Instrumentation.onRequestError = async (error, request, context) => {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { requestLogger } = await import('./lib/log/logger');
  const given = request.headers['x-request-id'];
  const requestId = typeof given === 'string' ? given : 'none';
  const digest = typeof error === 'object' && error && 'digest' in error ? String(error.digest) : undefined;
  requestLogger(requestId).error(
    { err: error, digest, method: request.method, route: context.routePath, routeType: context.routeType },
    'request failed',
  );
};
