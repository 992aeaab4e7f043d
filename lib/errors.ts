/** Every expected failure of the domain, as one code union; mapped to HTTP in lib/api/http-errors.ts only. */
export type AppErrorCode =
  | 'invalid_request'
  | 'invalid_signature'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'room_unavailable'
  | 'illegal_transition'
  | 'key_revoked'
  | 'reservation_not_ready'
  | 'too_early'
  | 'desk_check_in'
  | 'registration_required'
  | 'check_in_required'
  | 'last_manager'
  | 'payment_intent_in_use'
  | 'payment_intent_invalid'
  | 'slug_taken'
  | 'payload_too_large'
  | 'rate_limited'
  | 'too_many_holds'
  | 'extension_pending'
  | 'invalid_code'
  | 'gone'
  | 'not_available'
  | 'not_supported'
  | 'unavailable'
  | 'data_key_mismatch'
  | 'internal';

export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly details: Record<string, unknown>;

  constructor(
    code: AppErrorCode,
    message: string,
    details: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
