// `npm run bench:webhooks`: Stripe webhook acknowledgement at a fixed 250 deliveries a second
// (p99 < 50 ms, no non-2xx), and at saturation against the same server's empty route handler.
// Each figure twice; writes docs/PERFORMANCE.md.
import http from 'node:http';
import Stripe from 'stripe';
import { CHAOS_SECRETS, System } from '../chaos/harness';
import { machine, writeSection } from './harness';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const RATE = 250;
const CONCURRENCY = 32;
const stripe = new Stripe('sk_test_unused');
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

type Sample = { ms: number; status: number };

function request(url: string, method: 'GET' | 'POST', headers: Record<string, string>, body?: string): Promise<Sample> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.request(url, { method, headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ ms: performance.now() - started, status: res.statusCode ?? 0 }));
    });
    req.on('error', () => resolve({ ms: performance.now() - started, status: 0 }));
    if (body) req.write(body);
    req.end();
  });
}

let seq = 0;
function delivery(base: string): () => Promise<Sample> {
  return () => {
    const payload = JSON.stringify({ id: `evt_bench_${process.pid}_${seq++}`, object: 'event', type: 'payment_intent.created', created: Math.floor(Date.now() / 1000), data: { object: { id: 'pi_bench' } } });
    const signature = stripe.webhooks.generateTestHeaderString({ payload, secret: CHAOS_SECRETS.stripeWebhook });
    return request(`${base}/api/webhooks/stripe`, 'POST', { 'content-type': 'application/json', 'stripe-signature': signature, 'content-length': String(Buffer.byteLength(payload)) }, payload);
  };
}

async function fixedRate(send: () => Promise<Sample>): Promise<Sample[]> {
  const samples: Promise<Sample>[] = [];
  const started = performance.now();
  for (let i = 0; i < RATE * SECONDS; i++) {
    const due = started + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    samples.push(send());
  }
  return Promise.all(samples);
}

async function saturate(send: () => Promise<Sample>): Promise<{ throughput: number; samples: Sample[] }> {
  const samples: Sample[] = [];
  const deadline = performance.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (performance.now() < deadline) samples.push(await send());
  }));
  return { throughput: samples.length / ((performance.now() - started) / 1000), samples };
}

const pct = (samples: Sample[], p: number) => {
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
};

const WORKERS = Number(process.env.BENCH_WORKERS ?? 1);
const system = new System('bench-webhooks');
await system.start({ webs: 1, workers: WORKERS });
const base = system.webUrl(0);
const ping = () => request(`${base}/api/ping`, 'GET', {});
// Warm up both routes.
for (let i = 0; i < 200; i++) await Promise.all([delivery(base)(), ping()]);

const lines: string[] = [];
const verdicts: string[] = [];
const rateRuns: { p50: number; p99: number; bad: number }[] = [];
const satRuns: { webhook: number; empty: number }[] = [];
for (let run = 1; run <= 2; run++) {
  const fixed = await fixedRate(delivery(base));
  rateRuns.push({ p50: pct(fixed, 0.5), p99: pct(fixed, 0.99), bad: fixed.filter((s) => s.status < 200 || s.status >= 300).length });
  const empty = await saturate(ping);
  const hook = await saturate(delivery(base));
  satRuns.push({ webhook: hook.throughput, empty: empty.throughput });
}
await system.stop();

lines.push('| run | fixed 250/s: p50 ms | p99 ms | non-2xx | saturation: webhook req/s | empty route req/s | ratio |', '|---:|---:|---:|---:|---:|---:|---:|');
rateRuns.forEach((r, i) => {
  const s = satRuns[i]!;
  lines.push(`| ${i + 1} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.bad} | ${s.webhook.toFixed(0)} | ${s.empty.toFixed(0)} | ${(s.webhook / s.empty).toFixed(2)} |`);
});
const rateMissed = rateRuns.every((r) => r.p99 >= 50 || r.bad > 0);
const satMissed = satRuns.every((s) => s.webhook / s.empty < 0.5);
verdicts.push(`- Fixed 250/s, p99 < 50 ms and no non-2xx: ${rateMissed ? 'MISSED (both runs)' : 'met'}.`);
verdicts.push(`- Saturation ≥ 0.5× the empty route handler (${CONCURRENCY} connections): ${satMissed ? 'MISSED (both runs)' : 'met'}.`);

const body = `
Command: \`${WORKERS === 1 ? '' : `BENCH_WORKERS=${WORKERS} `}npm run bench:webhooks\` (${SECONDS} s per measurement, each measured twice; one web process in production mode, ${WORKERS} worker(s) processing the events meanwhile, embedded PostgreSQL, all on this machine; the load generator runs in the same machine's Node process).
Machine: ${machine()}. Run: ${new Date().toISOString()}.

${lines.join('\n')}

${verdicts.join('\n')}
`;
writeSection('Webhook acknowledgement', body);
process.stdout.write(body);
process.exit(0);
