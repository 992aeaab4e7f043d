import { execFileSync } from 'node:child_process';
import { chromium, defineConfig, devices } from '@playwright/test';
import { findChromium, machineProbe } from './scripts/find-browser';

// A port chosen at run time, once: worker processes inherit it through the environment.
if (!process.env.E2E_PORT) {
  process.env.E2E_PORT = execFileSync(process.execPath, [
    '-e',
    "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
  ]).toString();
}
const port = Number(process.env.E2E_PORT);
// The port of the local Acuity stand-in e2e/acuity.spec.ts serves: the app's workers read appointments there.
if (!process.env.E2E_ACUITY_PORT) {
  process.env.E2E_ACUITY_PORT = execFileSync(process.execPath, [
    '-e',
    "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
  ]).toString();
}
const baseURL = `http://localhost:${port}`;

// The browser, chosen once (worker processes inherit it): CHROMIUM_PATH, the system's Chromium,
// Playwright's own, or Playwright's own downloaded now; else one sentence saying what to install.
if (!process.env.E2E_CHROMIUM) {
  try {
    process.env.E2E_CHROMIUM = findChromium(machineProbe(() => chromium.executablePath())).executablePath;
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
const launchOptions = {
  executablePath: process.env.E2E_CHROMIUM,
  args: [
    // Chromium's sandbox cannot start as root (CI runs as root); Playwright leaves it off by default too.
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

export default defineConfig({
  testDir: 'e2e',
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  workers: 2,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // The failure summary last: CI keeps only the tail of the output (e2e/failure-summary.ts).
  reporter: [['list'], ...(process.env.CI ? [] : [['html', { open: 'never' }] as const]), ['./e2e/failure-summary.ts']],
  use: { baseURL, trace: 'retain-on-failure', launchOptions },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], launchOptions }, testIgnore: /guest\..*spec\.ts/ },
    { name: 'phone', use: { ...devices['Pixel 7'], launchOptions }, testMatch: /guest\..*spec\.ts/ },
  ],
  webServer: {
    // A fresh embedded database for every run, seeded with the demo; the app in production mode.
    command: 'rm -rf .data/e2e && node scripts/ensure-generated.mjs && tsx scripts/start.ts',
    url: `${baseURL}/api/health`,
    // Two web processes and two workers on one database, so nothing relies on process memory.
    env: {
      PORT: String(port),
      UNLOCKOS_DATA_DIR: '.data/e2e',
      APP_URL: baseURL,
      LOG_LEVEL: 'warn',
      WEB_PROCESSES: '2',
      WORKER_PROCESSES: '2',
      // Never Acuity itself: no spec reaches outside this machine.
      ACUITY_API_URL: `http://127.0.0.1:${process.env.E2E_ACUITY_PORT}`,
    },
    timeout: 600_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
  },
});
