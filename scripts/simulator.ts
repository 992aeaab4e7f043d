// The lock-vendor simulator (TTLock's open platform) as its own process; prints its URL once
// listening. Its client credentials and account come from the launcher (SIMULATOR_CLIENT_ID,
// SIMULATOR_CLIENT_SECRET, SIMULATOR_USERNAME, SIMULATOR_PASSWORD): none is built in.
import { createSimulator } from '../tooling/simulator/lock-simulator';

const clientSecret = process.env.SIMULATOR_CLIENT_SECRET;
const password = process.env.SIMULATOR_PASSWORD;
if (!clientSecret || !password) {
  process.stderr.write(
    'SIMULATOR_CLIENT_SECRET and SIMULATOR_PASSWORD must be set (npm start makes new ones on every start)\n',
  );
  process.exit(2);
}

const server = createSimulator({
  clients: { [process.env.SIMULATOR_CLIENT_ID || 'unlockos']: clientSecret },
  users: { [process.env.SIMULATOR_USERNAME || 'unlockos_demo']: password },
});
server.listen(Number(process.env.SIMULATOR_PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object')
    process.stdout.write(`simulator listening on http://127.0.0.1:${address.port}\n`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.close(() => process.exit(0)));
