import path from 'node:path';
import { defineConfig } from 'vitest/config';

// `npm run test:chaos`: whole systems are started, killed and restarted; one scenario at a time.
export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  test: {
    include: ['scripts/chaos/**/*.chaos.test.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 180_000,
    env: { LOG_LEVEL: 'silent', UNLOCKOS_PROCESS: 'chaos' },
  },
});
