import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

export const NO_CHROMIUM =
  'No Chromium found: install Debian’s chromium (apt-get install -y chromium) or run `npx playwright install chromium`, or set CHROMIUM_PATH.';

/** Where distributions put Chromium or Chrome. */
export const SYSTEM_CHROMIUMS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
];

export type BrowserProbe = {
  env: Record<string, string | undefined>;
  exists: (path: string) => boolean;
  /** Where Playwright keeps (or would keep) its own Chromium. */
  bundledPath: () => string;
  /** Downloads Playwright's Chromium; false when that failed (no network, a timeout). */
  install: () => boolean;
};

export type FoundBrowser = { executablePath: string; source: 'CHROMIUM_PATH' | 'system' | 'playwright' | 'installed' };

/**
 * The Chromium the end-to-end tests run: CHROMIUM_PATH, else the system's, else Playwright's own,
 * else Playwright's own after downloading it once (unless PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD is set).
 * Throws one sentence saying what to install when there is none.
 */
export function findChromium(probe: BrowserProbe): FoundBrowser {
  const given = probe.env.CHROMIUM_PATH;
  if (given) {
    if (!probe.exists(given)) throw new Error(`CHROMIUM_PATH is ${given}, which does not exist.`);
    return { executablePath: given, source: 'CHROMIUM_PATH' };
  }
  const system = SYSTEM_CHROMIUMS.find((path) => probe.exists(path));
  if (system) return { executablePath: system, source: 'system' };
  const bundled = probe.bundledPath();
  if (probe.exists(bundled)) return { executablePath: bundled, source: 'playwright' };
  if (!probe.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD && probe.install() && probe.exists(bundled)) {
    return { executablePath: bundled, source: 'installed' };
  }
  throw new Error(NO_CHROMIUM);
}

/** The probe of this machine: its files, Playwright's registry, and `playwright install chromium` (10 minutes at most). */
export function machineProbe(bundledPath: () => string): BrowserProbe {
  return {
    env: process.env,
    exists: existsSync,
    bundledPath,
    install: () => {
      process.stderr.write(
        'No Chromium on this machine: downloading Playwright’s (npx playwright install chromium)…\n',
      );
      try {
        const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
        // Quiet: offline it prints a stack trace, which gives way to findChromium's one sentence.
        execFileSync(process.execPath, [cli, 'install', 'chromium'], { stdio: 'pipe', timeout: 600_000 });
        return true;
      } catch {
        return false;
      }
    },
  };
}
