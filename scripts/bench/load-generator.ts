// The load generator of the HTTP benches (`npm run bench:api`, `npm run bench:webhooks`), in a process
// of its own, as an integration's calls come from outside the server (and so that the server's figures
// do not share an event loop with the client's). A bench forks it and sends it one phase at a time over
// IPC; it answers with one sample per request and its own CPU time. Also runs alone against any server
// (`LOAD_URL=http://127.0.0.1:3000 STRIPE_WEBHOOK_SECRET=… npx tsx scripts/bench/load-generator.ts`):
// a burst of 1,500 Stripe deliveries, then 250/s for 10 s, printed as JSON — issue 16's outside view.
import Stripe from 'stripe';
import { Pool } from 'undici';

/** A Stripe event to deliver: a type and the payment intent it names; without one, `payment_intent.created` (stored, ignored). */
export type LoadEvent = { type: string; intentId: string };
/** One plain request, sent as it is (no signing). */
export type LoadRequest = { path: string; method: 'GET' | 'POST'; headers: Record<string, string>; body?: string };
export type Phase =
  /** As many requests as `concurrency` keep-alive connections send in `seconds`: `request`, else a Stripe delivery (stored, ignored). */
  | { op: 'saturate'; request?: LoadRequest; seconds: number; concurrency: number }
  | { op: 'fixed'; rate: number; seconds: number; events?: LoadEvent[] }
  | { op: 'burst'; concurrency: number; events: LoadEvent[] };
/** One request: when it was sent (ms from the phase's start), how long it took (ms), its status (0: no answer). */
export type Sample = [sentAt: number, ms: number, status: number];
/** A phase's answer: its samples, and this process's CPU time (user + system, ms) while it ran. */
export type PhaseResult = { samples: Sample[]; cpuMs: number };

const secret = process.env.STRIPE_WEBHOOK_SECRET ?? '';
const stripe = new Stripe('sk_test_unused');
// undici's keep-alive pool spends about half the CPU per request of node:http's client.
const pool = new Pool(process.env.LOAD_URL ?? 'http://127.0.0.1:3000', { connections: 64 });
let seq = 0;

async function request(
  started: number,
  path: string,
  method: 'GET' | 'POST',
  headers: Record<string, string>,
  body?: string,
): Promise<Sample> {
  const sent = performance.now();
  try {
    const response = await pool.request({ path, method, headers, body });
    await response.body.dump();
    return [sent - started, performance.now() - sent, response.statusCode];
  } catch {
    return [sent - started, performance.now() - sent, 0];
  }
}

function deliver(started: number, event?: LoadEvent): Promise<Sample> {
  const intent = event?.intentId ?? 'pi_bench';
  const payload = JSON.stringify({
    id: `evt_bench_${process.pid}_${seq++}`,
    object: 'event',
    type: event?.type ?? 'payment_intent.created',
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: intent,
        object: 'payment_intent',
        amount: 20000,
        amount_received: 20000,
        currency: 'jpy',
        ...(event?.type === 'payment_intent.payment_failed' ? { last_payment_error: { code: 'card_declined' } } : {}),
      },
    },
  });
  const signature = stripe.webhooks.generateTestHeaderString({ payload, secret });
  return request(
    started,
    '/api/webhooks/stripe',
    'POST',
    {
      'content-type': 'application/json',
      'stripe-signature': signature,
      'content-length': String(Buffer.byteLength(payload)),
    },
    payload,
  );
}

async function fixed(phase: Extract<Phase, { op: 'fixed' }>): Promise<Sample[]> {
  const samples: Promise<Sample>[] = [];
  const started = performance.now();
  for (let i = 0; i < phase.rate * phase.seconds; i++) {
    const wait = started + (i * 1000) / phase.rate - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    samples.push(deliver(started, phase.events?.[i]));
  }
  return Promise.all(samples);
}

async function closedLoop(concurrency: number, next: (started: number) => Promise<Sample> | null): Promise<Sample[]> {
  const samples: Sample[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (;;) {
        const sending = next(started);
        if (!sending) return;
        samples.push(await sending);
      }
    }),
  );
  return samples;
}

export async function runPhase(phase: Phase): Promise<Sample[]> {
  if (phase.op === 'fixed') return fixed(phase);
  if (phase.op === 'burst') {
    let i = 0;
    return closedLoop(phase.concurrency, (started) =>
      i < phase.events.length ? deliver(started, phase.events[i++]) : null,
    );
  }
  const deadline = performance.now() + phase.seconds * 1000;
  const plain = phase.request;
  return closedLoop(phase.concurrency, (started) =>
    performance.now() >= deadline
      ? null
      : plain
        ? request(started, plain.path, plain.method, plain.headers, plain.body)
        : deliver(started),
  );
}

if (process.send) {
  process.on('message', (phase: Phase) => {
    const cpu = process.cpuUsage();
    void runPhase(phase).then((samples) => {
      const used = process.cpuUsage(cpu);
      process.send!({ samples, cpuMs: (used.user + used.system) / 1000 } satisfies PhaseResult);
    });
  });
  process.on('disconnect', () => void pool.close().then(() => process.exit(0)));
} else {
  // Alone: the measurement against a running server (events name no booking: processed as ignored).
  const burst = await runPhase({
    op: 'burst',
    concurrency: 32,
    events: Array.from({ length: 1500 }, (_, i) => ({ type: 'payment_intent.succeeded', intentId: `pi_none_${i}` })),
  });
  const fixedSamples = await runPhase({
    op: 'fixed',
    rate: 250,
    seconds: 10,
    events: Array.from({ length: 2500 }, (_, i) => ({ type: 'payment_intent.succeeded', intentId: `pi_none_f${i}` })),
  });
  const sorted = fixedSamples.map((s) => s[1]).sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
  process.stdout.write(
    `${JSON.stringify({
      burst: { count: burst.length, seconds: Math.max(...burst.map((s) => s[0] + s[1])) / 1000 },
      fixed250: {
        p50: at(0.5),
        p99: at(0.99),
        max: sorted.at(-1),
        non2xx: fixedSamples.filter((s) => s[2] < 200 || s[2] >= 300).length,
      },
    })}\n`,
  );
  await pool.close();
}
