// `npm run bench:start`: where a first `npm start` spends its time. Each run starts the app the way a newcomer
// does after `npm ci` on a fresh clone — `npm start` itself (its prestart step included), with no build (a fresh
// NEXT_DIST_DIR) and no database (a fresh UNLOCKOS_DATA_DIR) — and times each phase from the launcher's own lines
// and Next.js's build output until /api/health answers 200; then a second start on the same folders (a restart:
// nothing to build). The build runs while the database starts (scripts/start.ts), so phases overlap: each is
// given as its time since the start. Two fresh runs (BENCH_RUNS). Writes docs/PERFORMANCE.md "First start
// (bench:start)".
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../tooling/database/embedded';
import { machine, writeSection } from './harness';

type Phase = { name: string; at: number };
type Run = { total: number; phases: Phase[]; restart: number; load: string };

/** The lines that start or end a phase (the build and the database run side by side). */
const MARKS: [RegExp, string][] = [
  [/building the app/, 'build starts'],
  [/database ready/, 'database ready (started, migrated, seeded)'],
  [/Compiled successfully|✓ Compiled/, 'build: compiled'],
  [/Generating static pages using \d+ workers? \((\d+)\/\1\)|✓ Generating static pages/, 'build: pages generated'],
  [/ƒ\s+\(Dynamic\)/, 'build: output complete'],
  [/is running at/, 'web processes started'],
  [/Finished writing to filesystem cache/, 'build cache saved (not waited for)'],
];
const CACHE_SAVED = 'build cache saved (not waited for)';
const WEB_ANSWERS = 'web answers /api/health';

async function startOnce(dataDir: string, distDir: string): Promise<{ total: number; phases: Phase[] }> {
  const port = await freePort();
  const began = performance.now();
  const phases: Phase[] = [];
  const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['start', '--silent'], {
    env: {
      ...process.env,
      PORT: String(port),
      UNLOCKOS_DATA_DIR: dataDir,
      NEXT_DIST_DIR: distDir,
      APP_URL: `http://localhost:${port}`,
      LOG_LEVEL: 'warn',
      NEXT_TELEMETRY_DISABLED: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const seen = new Set<string>();
  const onLine = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n'))
      for (const [pattern, name] of MARKS)
        if (!seen.has(name) && pattern.test(line)) {
          seen.add(name);
          phases.push({ name, at: performance.now() - began });
        }
  };
  child.stdout.on('data', onLine);
  child.stderr.on('data', onLine);
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
      const status = await fetch(`http://127.0.0.1:${port}/api/health`)
        .then((r) => r.status)
        .catch(() => null);
      // The web process answers (503 until a worker has reported in), then the whole app is healthy.
      if (status !== null && !seen.has(WEB_ANSWERS)) {
        seen.add(WEB_ANSWERS);
        phases.push({ name: WEB_ANSWERS, at: performance.now() - began });
      }
      if (status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const total = performance.now() - began;
    phases.push({ name: 'healthy', at: total });
    // A first start's build goes on saving its cache while the app serves: wait for it (a minute at most) to say
    // how long that takes, then stop everything.
    const building = phases.some((p) => p.name === 'build starts');
    for (let waited = 0; building && waited < 60_000 && !seen.has(CACHE_SAVED); waited += 250)
      await new Promise((resolve) => setTimeout(resolve, 250));
    return { total, phases: phases.sort((a, b) => a.at - b.at) };
  } finally {
    // The launcher stops its children and the database on SIGINT, as Ctrl-C does.
    process.kill(-child.pid!, 'SIGINT');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

async function main(): Promise<void> {
  // Next.js adds a build folder's types to tsconfig.json's include; the bench's folders are gone afterwards.
  const tsconfig = readFileSync('tsconfig.json', 'utf8');
  try {
    await bench();
  } finally {
    writeFileSync('tsconfig.json', tsconfig);
  }
}

async function bench(): Promise<void> {
  const runs: Run[] = [];
  for (let i = 0; i < Number(process.env.BENCH_RUNS ?? 2); i++) {
    const scratch = mkdtempSync(path.join(tmpdir(), 'bench-start-'));
    const dataDir = path.join(scratch, 'data');
    // Inside the project (Next.js wants its dist dir there), named so nothing else uses it.
    const distDir = `.next-bench-start-${i}`;
    rmSync(distDir, { recursive: true, force: true });
    const load = loadavg()
      .map((n) => n.toFixed(2))
      .join(', ');
    try {
      const first = await startOnce(dataDir, distDir);
      const again = await startOnce(dataDir, distDir);
      runs.push({ ...first, restart: again.total, load });
      process.stdout.write(
        `run ${i + 1}: first start ${(first.total / 1000).toFixed(1)} s, restart ${(again.total / 1000).toFixed(1)} s\n`,
      );
    } finally {
      rmSync(scratch, { recursive: true, force: true });
      rmSync(distDir, { recursive: true, force: true });
    }
  }
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  // Phases in the order of the first run (they overlap: the build runs while the database starts).
  const names = [...new Set(runs.flatMap((r) => r.phases.map((p) => p.name)))];
  const rows = names.map((name) => {
    const cells = runs.map((run) => {
      const phase = run.phases.find((p) => p.name === name);
      return phase ? s(phase.at) : '—';
    });
    return `| ${name === 'healthy' ? '**healthy (the first start)**' : name} | ${cells.join(' | ')} |`;
  });
  writeSection(
    'First start (bench:start)',
    [
      `Command: \`npm run bench:start\` (${machine()}; ${new Date().toISOString().slice(0, 10)}; load average before`,
      `each run: ${runs.map((r) => r.load).join(' / ')}). Each run: \`npm start\` as on a fresh clone after \`npm ci\``,
      '(no build, a fresh embedded database seeded with the demo) until `/api/health` answers 200, then a restart on',
      'the same folders. Target: first start ≤ 30 s (issue 33). Times are since `npm start` was typed; the build runs',
      'while the database starts, and the web processes start when its output is complete, before it has saved its cache.',
      '',
      `| phase (time since \`npm start\`) | ${runs.map((_, i) => `run ${i + 1}`).join(' | ')} |`,
      `|---|${runs.map(() => '---:').join('|')}|`,
      ...rows,
      `| **restart (built, database kept)** | ${runs.map((r) => s(r.restart)).join(' | ')} |`,
      ...(process.env.BENCH_START_NOTE ? ['', process.env.BENCH_START_NOTE] : []),
    ].join('\n'),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
