import path from 'node:path';
import { defineConfig } from 'vitest/config';

// `npm run test:chaos`: whole systems are started, killed and restarted. Two scenarios at a time, each with a system of
// its own (its own database, data folder, ports and processes; nothing is killed by name): they mostly wait — for a
// cron minute, a dead worker's 45 s, a provider's retries — so two at once take half the time on two cores
// (294 s → 153 s in two runs here; docs/INTERNALS.md, Tests).
export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  test: {
    include: ['scripts/chaos/**/*.chaos.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 300_000,
    hookTimeout: 180_000,
    env: { LOG_LEVEL: 'silent', UNLOCKOS_PROCESS: 'chaos' },
  },
});
