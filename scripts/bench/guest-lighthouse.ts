// `npm run bench:guest-lighthouse`: the guest key page (/k/<token>) on a phone, measured the same way
// before and after a change to the UI: Lighthouse performance and accessibility (median of
// BENCH_RUNS runs, default 3, each alternating with the framework's /minimal page on the same build so
// the machine's load shows in the baseline too), and what a first visit downloads: JavaScript and CSS
// bytes. Builds first (BENCH_SKIP_BUILD=1 measures the build already in .next, BENCH_COMMIT names its commit). Appends one row,
// labelled BENCH_LABEL and the commit, to docs/PERFORMANCE.md.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, devices } from '@playwright/test';
import { System } from '../chaos/harness';
import { machine, writeSection } from './harness';
import { chromiumPath, lighthouse, type LighthouseScore } from './lighthouse';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const TITLE = 'Guest key page: Lighthouse and first-load bytes';
// BENCH_COMMIT names the commit a build in .next was made from (with BENCH_SKIP_BUILD).
const commit = process.env.BENCH_COMMIT ?? execFileSync('git', ['rev-parse', '--short', 'HEAD']).toString().trim();
const dirty =
  !process.env.BENCH_COMMIT &&
  execFileSync('git', ['status', '--porcelain', '--untracked-files=no']).toString().trim() !== '';
const label = process.env.BENCH_LABEL ?? 'run';

if (!process.env.BENCH_SKIP_BUILD) execFileSync('npm', ['run', 'build'], { stdio: 'inherit' });

const system = new System('bench-guest-lighthouse');
await system.start({ webs: 1, workers: 1 });
process.env.TEST_ADMIN_URL = system.adminUrl;
const { bookRoom, createBookableTenant } = await import('../../tooling/testing/fixtures');
const { tenantId, roomIds } = await createBookableTenant({ rooms: 1 });
const { token } = await bookRoom({ tenantId, roomId: roomIds[0]! });
const base = system.webUrl(0);

/** Bytes (decoded) of the scripts and stylesheets a first visit on a phone downloads. */
async function firstLoad(pagePath: string): Promise<{ js: number; css: number }> {
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-gpu'] });
  const context = await browser.newContext({ ...devices['Pixel 7'] });
  const page = await context.newPage();
  const bodies: Promise<[string, number]>[] = [];
  page.on('response', (response) => {
    const type = response.request().resourceType();
    if (type === 'script' || type === 'stylesheet')
      bodies.push(
        response.body().then(
          (b) => [type, b.length],
          () => [type, 0],
        ),
      );
  });
  await page.goto(`${base}${pagePath}`, { waitUntil: 'networkidle' });
  const sizes = await Promise.all(bodies);
  await browser.close();
  const sum = (kind: string) => sizes.filter(([t]) => t === kind).reduce((a, [, n]) => a + n, 0);
  return { js: sum('script'), css: sum('stylesheet') };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const guest: LighthouseScore[] = [];
const minimal: LighthouseScore[] = [];
let guestBytes: { js: number; css: number };
let minimalBytes: { js: number; css: number };
try {
  guestBytes = await firstLoad(`/k/${token}`);
  minimalBytes = await firstLoad('/minimal');
  for (let run = 0; run < RUNS; run++) {
    guest.push(lighthouse(`${base}/k/${token}`, 'guest'));
    minimal.push(lighthouse(`${base}/minimal`, 'minimal'));
  }
} finally {
  // Also on failure: the embedded PostgreSQL and the app's processes must not outlive the bench.
  await system.stop();
}

const m = (scores: LighthouseScore[], key: string) => median(scores.map((s) => s.values[key]!));
const row = [
  `${label} (${commit}${dirty ? '+changes' : ''})`,
  new Date().toISOString().slice(0, 16).replace('T', ' '),
  `${median(guest.map((s) => s.performance))} [${guest.map((s) => s.performance).join(', ')}]`,
  `${median(minimal.map((s) => s.performance))} [${minimal.map((s) => s.performance).join(', ')}]`,
  `${median(guest.map((s) => s.accessibility))}`,
  `${Math.round(m(guest, 'FCP'))} / ${Math.round(m(guest, 'LCP'))} / ${Math.round(m(guest, 'TBT'))} / ${m(guest, 'CLS').toFixed(3)}`,
  `${guestBytes.js}`,
  `${minimalBytes.js}`,
  `${guestBytes.css}`,
].join(' | ');

// Earlier rows stay, so the section reads as a history: before and after a change, side by side.
const file = path.join(process.cwd(), 'docs', 'PERFORMANCE.md');
const existing = existsSync(file) ? readFileSync(file, 'utf8') : '';
const section = existing.split(/\n(?=## )/).find((s) => s.startsWith(`## ${TITLE}`)) ?? '';
const rows = section.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| label'));
rows.push(`| ${row} |`);
// Everything after the table (each row's paragraph, the notes) stays as it was.
const sectionLines = section.split('\n');
let lastRow = -1;
sectionLines.forEach((line, i) => {
  if (line.startsWith('| ')) lastRow = i;
});
const afterTable = lastRow >= 0 ? sectionLines.slice(lastRow + 1).join('\n') : '';
const body = `
Command: \`BENCH_LABEL=<label> npm run bench:guest-lighthouse\` (builds, starts one web process and one worker on an
embedded PostgreSQL, books a room through the test fixtures and opens its guest link; Lighthouse's default mobile
run with the system Chromium, ${RUNS} times, alternating with the framework's /minimal page; bytes from one first
visit in Playwright's Pixel 7 profile). Scores are medians with each run in brackets; metrics are the guest page's
medians. Machine: ${machine()}, shared with other jobs: compare a row with the /minimal score beside it.

| label (commit) | when (UTC) | guest perf | /minimal perf | guest a11y | FCP / LCP / TBT ms / CLS | guest JS bytes | /minimal JS bytes | guest CSS bytes |
|---|---|---:|---:|---:|---|---:|---:|---:|
${rows.join('\n')}
${afterTable}`;
writeSection(TITLE, body);
process.stdout.write(`${row}\n`);
process.exit(0);
