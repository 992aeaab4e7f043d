// Types of fast-lane.mjs (plain JavaScript, loaded by the web server without a TypeScript step).
export function inFastLane(url: string): boolean;
export function fastLane(options: {
  origin: string;
  router: () => Promise<{ apiFetch: (request: Request) => Promise<Response> }>;
}): (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => boolean;
