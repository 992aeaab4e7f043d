import { describe, expect, it } from 'vitest';
import { findChromium, NO_CHROMIUM, type BrowserProbe } from './find-browser';

const BUNDLED = '/root/.cache/ms-playwright/chromium-1/chrome-linux64/chrome';

/** A machine with `files` on disk; `download` is what `playwright install chromium` would add (nothing: offline). */
function machine(files: string[], options: { env?: Record<string, string>; download?: string[] } = {}) {
  const disk = new Set(files);
  const installs: number[] = [];
  const probe: BrowserProbe = {
    env: options.env ?? {},
    exists: (path) => disk.has(path),
    bundledPath: () => BUNDLED,
    install: () => {
      installs.push(1);
      for (const file of options.download ?? []) disk.add(file);
      return (options.download ?? []).length > 0;
    },
  };
  return { probe, installs };
}

describe('findChromium', () => {
  it('takes CHROMIUM_PATH first, and says so when it points nowhere', () => {
    const { probe, installs } = machine(['/opt/chrome', '/usr/bin/chromium'], {
      env: { CHROMIUM_PATH: '/opt/chrome' },
    });
    expect(findChromium(probe)).toEqual({ executablePath: '/opt/chrome', source: 'CHROMIUM_PATH' });
    const missing = machine(['/usr/bin/chromium'], { env: { CHROMIUM_PATH: '/opt/none' } });
    expect(() => findChromium(missing.probe)).toThrow('CHROMIUM_PATH is /opt/none, which does not exist.');
    expect(installs).toHaveLength(0);
  });

  it('prefers the system’s Chromium to Playwright’s', () => {
    const { probe } = machine(['/usr/bin/chromium-browser', BUNDLED]);
    expect(findChromium(probe)).toEqual({ executablePath: '/usr/bin/chromium-browser', source: 'system' });
    expect(findChromium(machine(['/usr/bin/google-chrome']).probe).executablePath).toBe('/usr/bin/google-chrome');
  });

  it('uses Playwright’s own Chromium when installed, without downloading it again', () => {
    const { probe, installs } = machine([BUNDLED]);
    expect(findChromium(probe)).toEqual({ executablePath: BUNDLED, source: 'playwright' });
    expect(installs).toHaveLength(0);
  });

  it('downloads Playwright’s Chromium once when there is none', () => {
    const { probe, installs } = machine([], { download: [BUNDLED] });
    expect(findChromium(probe)).toEqual({ executablePath: BUNDLED, source: 'installed' });
    expect(installs).toHaveLength(1);
  });

  it('stops with one sentence saying what to install when the download fails or is not allowed', () => {
    const offline = machine([]);
    expect(() => findChromium(offline.probe)).toThrow(NO_CHROMIUM);
    expect(offline.installs).toHaveLength(1);
    const skipped = machine([], { env: { PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' }, download: [BUNDLED] });
    expect(() => findChromium(skipped.probe)).toThrow(NO_CHROMIUM);
    expect(skipped.installs).toHaveLength(0);
    expect(NO_CHROMIUM).toMatch(/^[^\n]+\.$/);
  });
});
