import { AppError } from '../errors';

/** A keyset position: an instant and an id, encoded opaquely. */
export type Cursor = { at: string; id: string };

export function encodeCursor(at: Date, id: string): string {
  return Buffer.from(JSON.stringify({ at: at.toISOString(), id })).toString('base64url');
}

/** Decodes a cursor from a previous page; anything else is 400 `invalid_request`. */
export function decodeCursor(text: string): { at: Date; id: string } {
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Cursor;
    const at = new Date(value.at);
    if (
      typeof value.id !== 'string' ||
      !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value.id) ||
      Number.isNaN(at.getTime())
    )
      throw new Error('shape');
    return { at, id: value.id };
  } catch {
    throw new AppError('invalid_request', 'The cursor is not valid.', {
      issues: [{ path: 'cursor', message: 'malformed cursor', code: 'invalid_cursor' }],
    });
  }
}

/** Whether `text` is a cursor `decodeCursor` reads (a page's link parameter: a malformed one means the first page). */
export function isCursor(text: unknown): text is string {
  if (typeof text !== 'string' || text.length > 200) return false;
  try {
    decodeCursor(text);
    return true;
  } catch {
    return false;
  }
}
