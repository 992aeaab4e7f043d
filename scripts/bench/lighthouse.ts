import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The system Chromium, which both Playwright and Lighthouse drive (nothing is downloaded). */
export const chromiumPath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));

export type LighthouseScore = {
  performance: number;
  accessibility: number;
  /** Metric values (ms; CLS unitless) by short name: FCP, LCP, TBT, SI, CLS. */
  values: Record<string, number>;
  /** The same as one line, each with its metric score in brackets. */
  metrics: string;
};

const METRICS = [
  ['first-contentful-paint', 'FCP'],
  ['largest-contentful-paint', 'LCP'],
  ['total-blocking-time', 'TBT'],
  ['speed-index', 'SI'],
  ['cumulative-layout-shift', 'CLS'],
] as const;

/**
 * One Lighthouse run (the devDependency's CLI, its default mobile emulation: a phone viewport, slow 4G,
 * 4× CPU slowdown) with the system Chromium: performance and accessibility scores and the metrics.
 */
export function lighthouse(url: string, keepAs?: string): LighthouseScore {
  // On a loaded machine Chromium now and then fails to record the trace (NO_NAVSTART): try again.
  for (let attempt = 1; ; attempt++) {
    try {
      return lighthouseOnce(url, keepAs);
    } catch (error) {
      if (attempt >= 3) throw error;
      process.stderr.write(`lighthouse attempt ${attempt} failed; retrying\n`);
    }
  }
}

function lighthouseOnce(url: string, keepAs?: string): LighthouseScore {
  const out = path.join(mkdtempSync(path.join(tmpdir(), 'lighthouse-')), 'report.json');
  execFileSync(
    process.execPath,
    [
      'node_modules/lighthouse/cli/index.js',
      url,
      '--quiet',
      '--only-categories=performance,accessibility',
      '--output=json',
      `--output-path=${out}`,
      '--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync',
    ],
    {
      env: { ...process.env, CHROME_PATH: chromiumPath ?? '' },
      stdio: ['ignore', 'ignore', 'inherit'],
      timeout: 180_000,
    },
  );
  if (process.env.BENCH_KEEP_REPORTS && keepAs)
    copyFileSync(out, path.join(process.env.BENCH_KEEP_REPORTS, `${keepAs}-${Date.now()}.json`));
  const report = JSON.parse(readFileSync(out, 'utf8')) as {
    categories: Record<string, { score: number }>;
    audits: Record<string, { numericValue?: number; score: number | null }>;
  };
  const values: Record<string, number> = {};
  const metrics = METRICS.map(([id, label]) => {
    const audit = report.audits[id];
    const value = audit?.numericValue ?? 0;
    values[label] = value;
    return `${label} ${id === 'cumulative-layout-shift' ? value.toFixed(3) : `${Math.round(value)} ms`} (${Math.round((audit?.score ?? 0) * 100)})`;
  }).join(', ');
  return {
    performance: Math.round(report.categories.performance!.score * 100),
    accessibility: Math.round(report.categories.accessibility!.score * 100),
    values,
    metrics,
  };
}
