import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The preload that stamps every request with the client's address (see the file, and API.md "Rate limits"). */
export const CLIENT_ADDRESS_PRELOAD = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../scripts/client-address.cjs',
);

/**
 * Node flags of every web process. A 16 MiB young generation (semi-space) means far fewer
 * scavenges under load: on the webhook benchmark it raised throughput and cut p99 (docs/PERFORMANCE.md).
 * The client-address preload is what makes per-address rate limits hold: without it the app
 * treats every client as "unknown".
 */
export const WEB_NODE_FLAGS = ['--max-semi-space-size=16', `--require=${CLIENT_ADDRESS_PRELOAD}`];

/**
 * The production web server: Next.js, with the fast lane for the addresses integrations hammer
 * (scripts/web-server.mjs). Started as `node <WEB_NODE_FLAGS> <WEB_SERVER> --port P --hostname H`.
 */
export const WEB_SERVER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../scripts/web-server.mjs');
