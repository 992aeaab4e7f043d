// `npx tsx scripts/bench/unknown-upload.ts [--url http://127.0.0.1:3000] [--mb 60] [--parallel 3] [--pid <web pid>]
// [--probe /api/health]`: what a made-up guest link costs a running app when it is sent a large register (issue 43,
// item 3). It PUTs `--parallel` registers of `--mb` MiB at once (ten passport photos) to
// `/api/guest/{unknown token}/registration`, each as fast as the server takes it, and prints each answer's status
// and time, how much had been sent by then, how the `--probe` address answered meanwhile, and — with `--pid`, a web
// process's id on this host — that process's resident memory before and after and its peak (VmHWM) from /proc.
// Not a test: a measurement to repeat by hand (docs/PERFORMANCE.md).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:3000' },
    mb: { type: 'string', default: '60' },
    parallel: { type: 'string', default: '3' },
    pid: { type: 'string' },
    probe: { type: 'string', default: '/api/health' },
  },
});
const base = values.url.replace(/\/$/, '');
const size = Number(values.mb) * 1024 * 1024;
const parallel = Number(values.parallel);

/** A web process's resident and peak memory in MiB (Linux /proc), or null without `--pid`. */
function memory(): { rssMiB: number; peakMiB: number } | null {
  if (!values.pid) return null;
  const status = readFileSync(`/proc/${values.pid}/status`, 'utf8');
  const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rssMiB: Math.round(kib('VmRSS') / 1024), peakMiB: Math.round(kib('VmHWM') / 1024) };
}

type Answer = { status: number; ms: number; sentMiB: number; error?: string };

/**
 * A register as the guest page sends it, of about `size` bytes: ten guests from abroad, each with a JPEG passport
 * photo of a tenth of it (a 6 MiB data URL at 60 MiB: 4.5 MiB of image, under the 5 MB cap), so every check but the
 * link's passes.
 */
function registerBody(): Buffer {
  const photoChars = Math.floor(size / 10 / 4) * 4;
  const photo = `/9j/4AAQ${'A'.repeat(photoChars - 8)}`;
  const guests = Array.from({ length: 10 }, (_, i) => ({
    name: `Guest ${i + 1}`,
    address: '12 St James Square, London',
    nationality: 'GB',
    passportNumber: `P${1000000 + i}`,
    passportImage: `data:image/jpeg;base64,${photo}`,
  }));
  return Buffer.from(JSON.stringify({ guests }));
}
const body = registerBody();

/** One PUT of the register (declared with content-length) to an unknown link, until its answer or its end. */
function upload(): Promise<Answer> {
  const token = randomBytes(32).toString('base64url');
  const started = performance.now();
  let sent = 0;
  return new Promise((resolve) => {
    let done = false;
    const finish = (answer: Omit<Answer, 'ms' | 'sentMiB'>) => {
      if (done) return;
      done = true;
      resolve({ ...answer, ms: Math.round(performance.now() - started), sentMiB: Math.round(sent / 1024 / 1024) });
    };
    const req = http.request(
      `${base}/api/guest/${token}/registration`,
      { method: 'PUT', headers: { 'content-type': 'application/json', 'content-length': String(body.length) } },
      (res) => {
        res.resume();
        finish({ status: res.statusCode ?? 0 });
        req.destroy();
      },
    );
    req.on('error', (error) => finish({ status: 0, error: error.message }));
    const write = () => {
      while (!done && sent < body.length) {
        const part = body.subarray(sent, Math.min(sent + 256 * 1024, body.length));
        sent += part.length;
        if (!req.write(part)) return void req.once('drain', write);
      }
      if (!done) req.end();
    };
    write();
  });
}

/** The probe address's status and time, asked while the uploads are sent. */
async function probe(): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${base}${values.probe}`).catch(() => null);
  await response?.arrayBuffer();
  return { status: response?.status ?? 0, ms: Math.round(performance.now() - started) };
}

const before = memory();
const uploads = Promise.all(Array.from({ length: parallel }, upload));
const during = await probe();
const answers = await uploads;
const after = memory();
process.stdout.write(
  `${JSON.stringify({ url: base, bodyMiB: Math.round(body.length / 1024 / 1024), parallel, answers, probe: { path: values.probe, ...during }, memory: { before, after } }, null, 2)}\n`,
);
