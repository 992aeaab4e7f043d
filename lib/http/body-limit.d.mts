// Types of body-limit.mjs (plain JavaScript, loaded by the web server without a TypeScript step).
export const MAX_BODY_BYTES: number;
export const REGISTRATION_BODY_BYTES: number;
export function bodyLimitOf(method: string, url: string): number;
