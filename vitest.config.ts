import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  test: {
    include: ['lib/**/*.test.ts', 'tooling/**/*.test.ts', 'scripts/**/*.test.ts', 'app/**/*.test.ts', 'proxy.test.ts'],
    // The chaos suite starts whole systems; it runs on its own (`npm run test:chaos`).
    exclude: ['**/node_modules/**', 'scripts/chaos/**'],
    globalSetup: ['tooling/testing/global-setup.ts'],
    setupFiles: ['tooling/testing/setup-worker.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { LOG_LEVEL: 'silent', UNLOCKOS_PROCESS: 'test' },
  },
});
