// `npm run bench:booking-page`: the booking site's first page (/b/{slug}) on a phone against the framework's
// minimal App Router page of the same build (/minimal): first-load JavaScript (target ≤ 1.15×) and Lighthouse
// mobile performance (target ≥ 95) and accessibility (target 100). Each figure twice; measures the build in .next
// (run `npm run build` first). Writes docs/PERFORMANCE.md.
import { chromium, devices } from '@playwright/test';
import { System } from '../chaos/harness';
import { machine, writeSection } from './harness';
import { chromiumPath, lighthouse, type LighthouseScore } from './lighthouse';

const system = new System('bench-booking-page');
await system.start({ webs: 1, workers: 1 });
process.env.TEST_ADMIN_URL = system.adminUrl;
const { adminClient } = await import('../../tooling/testing/fixtures');
const { createBookingSite } = await import('../../tooling/testing/booking-site');
const admin = await adminClient();
const site = await createBookingSite(admin, { rooms: 3, payment: 'online' });
await admin.end();
const base = system.webUrl(0);
const sitePath = `/b/${site.slug}`;

const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});

/** Bytes of JavaScript a first visit on a phone downloads (decoded), once the page has settled. */
async function firstLoadJs(path: string): Promise<number> {
  const context = await browser.newContext({ ...devices['Pixel 7'] });
  const page = await context.newPage();
  const bodies: Promise<number>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script')
      bodies.push(
        response.body().then(
          (b) => b.length,
          () => 0,
        ),
      );
  });
  await page.goto(`${base}${path}`, { waitUntil: 'networkidle' });
  const bytes = (await Promise.all(bodies)).reduce((a, b) => a + b, 0);
  await context.close();
  return bytes;
}

const rows = [
  '| run | booking page JS bytes | minimal JS bytes | JS ratio | Lighthouse perf | minimal perf | a11y |',
  '|---:|---:|---:|---:|---:|---:|---:|',
];
const ratios: number[] = [];
const scores: LighthouseScore[] = [];
const metricLines: string[] = [];
for (let run = 1; run <= 2; run++) {
  const siteJs = await firstLoadJs(sitePath);
  const minimalJs = await firstLoadJs('/minimal');
  ratios.push(siteJs / minimalJs);
  const score = lighthouse(`${base}${sitePath}`, 'booking');
  const minimalScore = lighthouse(`${base}/minimal`, 'minimal');
  scores.push(score);
  metricLines.push(`- run ${run}: booking page ${score.metrics}; minimal page ${minimalScore.metrics}.`);
  rows.push(
    `| ${run} | ${siteJs} | ${minimalJs} | ${(siteJs / minimalJs).toFixed(3)} | ${score.performance} | ${minimalScore.performance} | ${score.accessibility} |`,
  );
}
await browser.close();
await system.stop();

const body = `
Command: \`npm run build && npm run bench:booking-page\` (a published facility with three rooms of one type; first-load
JavaScript summed from the scripts Chromium downloads on a first visit with a Pixel 7 profile; each figure twice).
Machine: ${machine()}. Run: ${new Date().toISOString()}.

${rows.join('\n')}

- Booking page first-load JavaScript ≤ 1.15× the minimal page: ${ratios.every((r) => r > 1.15) ? 'MISSED (both runs)' : 'met'}.
- Lighthouse mobile performance ≥ 95: ${scores.every((s) => s.performance < 95) ? 'MISSED (both runs)' : 'met'}; accessibility 100: ${scores.every((s) => s.accessibility < 100) ? 'MISSED (both runs)' : 'met'}.

Lighthouse metrics (simulated mobile: slow 4G, 4× CPU slowdown; metric score in brackets):
${metricLines.join('\n')}
`;
writeSection('Booking site page', body);
process.stdout.write(body);
process.exit(0);
