// `npm run bench:start`: where a first `npm start` spends its time. Each run starts the launcher the way a newcomer
// does after `npm ci` on a fresh clone — no build (`.next` moved aside into a fresh NEXT_DIST_DIR), no database (a
// fresh UNLOCKOS_DATA_DIR) — and times each phase from the launcher's own lines and Next.js's build output until
// /api/health answers 200; then a second start on the same folders (a restart: nothing to build). Two fresh runs
// (BENCH_RUNS). Writes docs/PERFORMANCE.md "First start (bench:start)".
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../tooling/database/embedded';
import { machine, writeSection } from './harness';

type Phase = { name: string; at: number };
type Run = { total: number; phases: Phase[]; restart: number };

/** The launcher's lines that start a phase, in the order they come. */
const MARKS: [RegExp, string][] = [
  [/database ready/, 'database ready (start, migrations)'],
  [/building the app/, 'seeded, build starts'],
  [/Compiled successfully|✓ Compiled/, 'compiled'],
  [/Finished TypeScript|Linting and checking validity of types|Checking validity of types/, 'type-checked'],
  [/Generating static pages|Collecting page data/, 'pages generated'],
  [/is running at/, 'processes started'],
];

async function startOnce(dataDir: string, distDir: string): Promise<{ total: number; phases: Phase[] }> {
  const port = await freePort();
  const began = performance.now();
  const phases: Phase[] = [];
  const child = spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/start.ts'], {
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
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`)
        .then((r) => r.status === 200)
        .catch(() => false);
      if (ok) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const total = performance.now() - began;
    phases.push({ name: 'healthy', at: total });
    return { total, phases };
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
    try {
      const first = await startOnce(dataDir, distDir);
      const again = await startOnce(dataDir, distDir);
      runs.push({ ...first, restart: again.total });
      process.stdout.write(
        `run ${i + 1}: first start ${(first.total / 1000).toFixed(1)} s, restart ${(again.total / 1000).toFixed(1)} s\n`,
      );
    } finally {
      rmSync(scratch, { recursive: true, force: true });
      rmSync(distDir, { recursive: true, force: true });
    }
  }
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const names = [...new Set(runs.flatMap((r) => r.phases.map((p) => p.name)))];
  const rows = names.map((name) => {
    const cells = runs.map((run) => {
      const index = run.phases.findIndex((p) => p.name === name);
      if (index < 0) return '—';
      const since = index === 0 ? 0 : run.phases[index - 1]!.at;
      return `${s(run.phases[index]!.at)} (+${s(run.phases[index]!.at - since)})`;
    });
    return `| ${name} | ${cells.join(' | ')} |`;
  });
  writeSection(
    'First start (bench:start)',
    [
      `Command: \`npm run bench:start\` (${machine()}; ${new Date().toISOString().slice(0, 10)}). Each run: \`npm start\``,
      'as on a fresh clone after `npm ci` (no build, a fresh embedded database seeded with the demo) until',
      '`/api/health` answers 200, then a restart on the same folders. Target: first start ≤ 30 s (issue 33).',
      '',
      `| phase (time since start, +since the previous) | ${runs.map((_, i) => `run ${i + 1}`).join(' | ')} |`,
      `|---|${runs.map(() => '---:').join('|')}|`,
      ...rows,
      `| **restart (built, database kept)** | ${runs.map((r) => s(r.restart)).join(' | ')} |`,
    ].join('\n'),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
