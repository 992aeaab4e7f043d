// The lock-vendor simulator as its own process; prints its URL once listening.
import { createSimulator } from '../lib/vendor/simulator';

const server = createSimulator();
server.listen(Number(process.env.SIMULATOR_PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') process.stdout.write(`simulator listening on http://127.0.0.1:${address.port}\n`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.close(() => process.exit(0)));
