// Types of body-limit.mjs (plain JavaScript, loaded by the web server without a TypeScript step).
export const MAX_BODY_BYTES: number;
