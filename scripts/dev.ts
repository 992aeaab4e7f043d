// `npm run dev`: the same database, migrations and demo seed as `npm start` (scripts/launcher.ts),
// then `next dev` (hot reload), the worker and the lock-vendor simulator as children. Ctrl-C stops
// all of them, the embedded database last. The web port is PORT, else 3000 when it is free, else
// any free one; the simulator's is always a free one.
import net from 'node:net';
import { CLIENT_ADDRESS_PRELOAD, WEB_NODE_FLAGS } from '../tooling/config/web-process';
import { freePort } from '../tooling/database/embedded';
import { announce, NEXT_BIN, prepareServices, supervise } from './launcher';

function isFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

async function main(): Promise<void> {
  const host = process.env.HOST ?? '127.0.0.1';
  const port = process.env.PORT ? Number(process.env.PORT) : (await isFree(3000, host)) ? 3000 : await freePort();
  const services = await prepareServices({ port, nodeEnv: 'development' });
  const { spawnChild, spawnSimulator, spawnWorker, spawnMailCatcher, spawnStripeStandin } = supervise(services);
  spawnSimulator();
  spawnMailCatcher();
  spawnStripeStandin();
  spawnWorker('worker-1');
  // `next dev` serves from a process of its own: the client-address preload goes through
  // NODE_OPTIONS too, so per-address rate limits see real addresses in development as well.
  spawnChild('web-1', 'web', [...WEB_NODE_FLAGS, NEXT_BIN, 'dev', '--port', String(port), '--hostname', host], {
    NODE_OPTIONS: `--require=${CLIENT_ADDRESS_PRELOAD}`,
    NEXT_TELEMETRY_DISABLED: '1',
  });
  await announce(services, [`http://localhost:${port}`]);
}

main().catch((error: unknown) => {
  process.stderr.write(`UnlockOS failed to start: ${(error as Error).message}\n`);
  process.exit(1);
});
