import { createHash } from 'node:crypto';

/** A strong ETag of a response body: the same body always gives the same tag. */
export function etagOf(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/** Whether the request's `If-None-Match` names `etag` (a list, weak tags and `*` included, RFC 9110 §13.1.2). */
export function matchesIfNoneMatch(request: Request, etag: string): boolean {
  const header = request.headers.get('if-none-match');
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}
