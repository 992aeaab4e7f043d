// Types of trace.mjs (plain JavaScript, loaded by the web server without a TypeScript step).
import type { IncomingMessage } from 'node:http';
export const TRACE_MARKER: 'x-unlockos-trace';
export function markTrace(req: IncomingMessage): void;
