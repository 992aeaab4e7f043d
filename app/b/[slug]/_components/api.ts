/**
 * The booking site's calls to the public booking API (API.md "Public booking"), from the browser:
 * JSON in, `{data}` out, and every failure as one `PublicApiError` carrying the API's code and, for
 * 429, the seconds to wait.
 */
import { fill } from '@/lib/i18n/slots';
import type { ErrorWordsOf } from './booking-words';

export class PublicApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    /** Seconds from `retry-after` on a 429. */
    readonly retryAfter: number | null,
  ) {
    super(code);
  }
}

/** `path` below /api/public, with `body` POSTed as JSON when given; the response's `data`, or a PublicApiError. */
export async function publicApi<T>(path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`/api/public${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new PublicApiError(0, 'network', null);
  }
  const payload = (await response.json().catch(() => null)) as { data?: T; error?: { code?: string } } | null;
  if (!response.ok || !payload || payload.data === undefined) {
    const after = Number(response.headers.get('retry-after'));
    throw new PublicApiError(
      response.status,
      payload?.error?.code ?? (response.status === 429 ? 'rate_limited' : 'internal'),
      Number.isFinite(after) && after > 0 ? Math.ceil(after) : null,
    );
  }
  return payload.data;
}

/** The API code of a failure, or null (a network failure is `network`). */
export const errorCode = (error: unknown) => (error instanceof PublicApiError ? error.code : error ? 'internal' : null);

/** TanStack Query's retry rule: once more for a lost connection or a server error, never for an answer about the request. */
export function retryOnce(failures: number, error: unknown): boolean {
  return failures < 1 && (!(error instanceof PublicApiError) || error.status === 0 || error.status >= 500);
}

/** What to tell the guest about a failure: wait N seconds, no connection, not found, or that it went wrong. */
export function errorText(error: unknown, words: ErrorWordsOf): string {
  if (!(error instanceof PublicApiError)) return words.generic;
  if (error.code === 'rate_limited' || error.status === 429)
    return fill(words.rateLimited, { seconds: String(error.retryAfter ?? 60) });
  if (error.code === 'network') return words.network;
  if (error.status === 404) return words.notFound;
  return words.generic;
}
