// Types of fast-lane.mjs (plain JavaScript, loaded by the web server without a TypeScript step).
export function fastLaneRoute(url: string): { route: string; params: Record<string, string | string[]> } | null;
export const FAST_LANE_ROUTES: readonly string[];
