import pino from 'pino';

/**
 * Field names whose values never reach a log line, at the top level and one or two levels down.
 * Messages must not interpolate such values either: log ids and codes, not bodies.
 */
const SENSITIVE = [
  'authorization',
  'cookie',
  'set-cookie',
  'pin',
  'token',
  'secret',
  'password',
  'key',
  'apiKey',
  'body',
  'stripe-signature',
];

export const REDACT_PATHS = SENSITIVE.flatMap((field) => {
  const quoted = field.includes('-') ? `["${field}"]` : `.${field}`;
  const top = field.includes('-') ? `["${field}"]` : field;
  return [top, `*${quoted}`, `*.*${quoted}`];
});

/** The process-wide logger: JSON lines with sensitive fields replaced by "[redacted]". */
export const logger = pino(
  {
    level: process.env.LOG_LEVEL ?? 'info',
    base: { service: process.env.UNLOCKOS_PROCESS ?? 'app' },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
  },
  // UNLOCKOS_LOG_FILE sends the lines to a file instead of stdout (the leak test reads it).
  process.env.UNLOCKOS_LOG_FILE ? pino.destination({ dest: process.env.UNLOCKOS_LOG_FILE, sync: true }) : undefined,
);

export type Logger = pino.Logger;

/** A logger whose every line carries the request id. */
export function requestLogger(requestId: string): Logger {
  return logger.child({ requestId });
}
