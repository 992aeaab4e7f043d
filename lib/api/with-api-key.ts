import { AppError } from '../errors';
import { authenticateApiKey, type ApiKeyPrincipal } from '../auth/api-keys';
import { API_KEY_LIMIT, takeTokens } from '../ratelimit/rate-limit';
import { withRequest, type RequestContext } from './http';

export type ApiContext = RequestContext & { principal: ApiKeyPrincipal };

/**
 * Wraps an `/api/v1` route: a valid `Authorization: Bearer <api key>` or 401, within the key's rate
 * limit or 429; the handler sees only that key's tenant.
 */
export function withApiKey<P = Record<string, never>>(handler: (ctx: ApiContext, params: P) => Promise<Response>) {
  return withRequest<P>(async (ctx, params) => {
    const header = ctx.request.headers.get('authorization') ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const principal = match ? await authenticateApiKey(match[1]!) : null;
    if (!principal) throw new AppError('unauthorized', 'A valid API key is required (Authorization: Bearer <key>).');
    await takeTokens([{ bucket: `api:${principal.apiKeyId}`, ...API_KEY_LIMIT }]);
    return handler({ ...ctx, principal }, params);
  });
}
