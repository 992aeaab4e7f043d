import { AppError } from '../errors';
import { authenticateApiKey, type ApiKeyPrincipal } from '../auth/api-keys';
import { withRequest, type RequestContext } from './http';

export type ApiContext = RequestContext & { principal: ApiKeyPrincipal };

/** Wraps an `/api/v1` route: a valid `Authorization: Bearer <api key>` or 401; the handler sees only that key's tenant. */
export function withApiKey<P = Record<string, never>>(handler: (ctx: ApiContext, params: P) => Promise<Response>) {
  return withRequest<P>(async (ctx, params) => {
    const header = ctx.request.headers.get('authorization') ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const principal = match ? await authenticateApiKey(match[1]!) : null;
    if (!principal) throw new AppError('unauthorized', 'A valid API key is required (Authorization: Bearer <key>).');
    return handler({ ...ctx, principal }, params);
  });
}
