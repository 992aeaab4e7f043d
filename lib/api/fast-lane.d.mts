// Types of fast-lane.mjs (plain JavaScript, loaded by the web server without a TypeScript step).
export function inFastLane(url: string): boolean;
