import { AppError } from '../errors';
import { MAX_BODY_BYTES, REGISTRATION_BODY_BYTES } from './body-limit.mjs';

/**
 * How many bytes of large request bodies (over the ordinary 256 KiB: the guest register's passport photos) one web
 * process reads and holds at once: two full registers. Reading, parsing and handing one to PostgreSQL takes a few
 * times its size in memory, so that keeps a process far from its heap's end whoever sends them, while the usual
 * register (a photo or two of a few MB) leaves room for dozens at a time.
 */
export const LARGE_BODY_BUDGET_BYTES = 2 * REGISTRATION_BODY_BYTES;

/** Seconds a request turned away for want of room is told to wait (`Retry-After`). */
const RETRY_AFTER_SECONDS = 5;

// On globalThis: the web server's fast lane and Next.js's catch-all each load their own copy of lib in one process.
const BUDGET = Symbol.for('unlockos.largeBodyBudget');
const budget = () => ((globalThis as Record<symbol, { used: number }>)[BUDGET] ??= { used: 0 });

/** Runs a request's reading and use of its body (`run`), holding its share of this process's budget while it does. */
export type BodySlot = <T>(run: () => Promise<T>) => Promise<T>;

/**
 * The room a request's body needs in this process, as a wrapper for the code that reads and uses it: nothing for a
 * body declared (content-length) within the ordinary limit; otherwise its declared size — the route's `limit` when
 * it declares none (chunked) — out of `LARGE_BODY_BUDGET_BYTES`, held until `run` settles. No room → 503
 * `unavailable` with `Retry-After`, before a byte of the body is read. Take it only once the request is known to
 * deserve its body (a live guest link, its rate limit counted), so a stranger's request never holds any.
 */
export function bodySlotOf(request: Request, limit: number): BodySlot {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  const bytes = Number.isFinite(declared) ? Math.min(declared, limit) : limit;
  if (bytes <= MAX_BODY_BYTES) return (run) => run();
  return async (run) => {
    const state = budget();
    if (state.used + bytes > LARGE_BODY_BUDGET_BYTES)
      throw new AppError('unavailable', 'Other uploads are being received; try again in a few seconds.', {
        retryAfter: RETRY_AFTER_SECONDS,
      });
    state.used += bytes;
    try {
      return await run();
    } finally {
      state.used -= bytes;
    }
  };
}
