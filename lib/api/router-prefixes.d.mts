// Types of router-prefixes.mjs (plain JavaScript, loaded by the web server without a TypeScript step).
export const ROUTER_PREFIXES: readonly string[];
