import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { setPriority } from 'node:os';
import path from 'node:path';

/** What a production build is made from: a change to any of these makes `npm start` build again. */
const BUILD_SOURCES = [
  'app',
  'components',
  'i18n',
  'messages',
  'lib',
  'public',
  'proxy.ts',
  'instrumentation.ts',
  'next.config.js',
  'package-lock.json',
  'tsconfig.json',
];

function newestMtime(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry)
    .filter((name) => name !== 'node_modules' && !name.startsWith('.'))
    .reduce((newest, name) => Math.max(newest, newestMtime(path.join(entry, name))), stat.mtimeMs);
}

/** A build is needed when there is none in `distDir`, or a source file under `root` is newer than it. */
export function buildIsStale(root: string, distDir: string): boolean {
  const buildId = path.join(distDir, 'BUILD_ID');
  if (!existsSync(buildId)) return true;
  const built = statSync(buildId).mtimeMs;
  return BUILD_SOURCES.some((source) => newestMtime(path.join(root, source)) > built);
}

// The legend `next build` prints under its route table: every file the server reads is written by then. What it
// does after (Turbopack saves its build cache) only makes the next build shorter.
const ROUTE_TABLE_LEGEND = /^\s*ƒ\s+\(Dynamic\)/m;
const COMPILED = /Compiled successfully|✓ Compiled/;
// A compile-mode build ends by asking for a "generate" step: this app prerenders nothing (decision 039), so there is
// none, and the line would only puzzle whoever watches `npm start`.
const GENERATE_STEP_NOTE = /^[^\n]*Build ran with "compile" mode[^\n]*\n?/m;

/**
 * The build `npm start` runs (after `node <next's bin>`): Next.js's compile mode, which skips collecting page data
 * and prerendering — every route of this app renders per request (decision 039). `npm run build` is the complete one.
 */
export const START_BUILD_ARGS = ['build', '--experimental-build-mode=compile'];

/** The nice value of a build that has written its output and goes on saving its cache. */
export const CACHE_SAVING_NICE = 19;

export type Build = {
  child: ChildProcess;
  /**
   * Resolves once the build has compiled (or is usable): what follows (collecting page data, generating static pages)
   * runs in one process on one core, so what does not need the build's output can start beside it.
   */
  compiled: Promise<void>;
  /** Resolves once the build's output is complete (the route table printed, or the build exited 0). */
  usable: Promise<void>;
};

/**
 * Lowers a process's CPU priority, every thread of it (Linux gives each thread its own nice value, and Turbopack
 * saves its cache from a pool of threads). Raising a nice value needs no privilege; a failure changes nothing.
 */
export function yieldCpu(pid: number, nice: number): void {
  let threads = [pid];
  try {
    threads = readdirSync(`/proc/${pid}/task`).map(Number);
  } catch {
    // No /proc here: the process's own priority is what there is.
  }
  for (const tid of threads) {
    try {
      setPriority(tid, nice);
    } catch {
      // The thread has ended, or this system refuses: it keeps its priority.
    }
  }
}

/**
 * Runs a build (`node <args>`, `next build` in the launcher), its output passed through to `out`. `usable` fails when
 * the build exits non-zero before its output is complete; once complete, the build's remaining work (its cache)
 * yields the CPU to everything else, and an exit after it is only reported.
 */
export function startBuild(options: {
  args: string[];
  env: NodeJS.ProcessEnv;
  out?: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream };
  say?: (line: string) => void;
}): Build {
  const out = options.out ?? process;
  const child = spawn(process.execPath, options.args, { env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let tail = '';
  let complete = false;
  let markCompiled = () => {};
  const compiled = new Promise<void>((resolve) => (markCompiled = resolve));
  const usable = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      out.stdout.write(text.replace(GENERATE_STEP_NOTE, ''));
      if (complete) return;
      tail = (tail + text).slice(-4096);
      if (COMPILED.test(tail)) markCompiled();
      if (ROUTE_TABLE_LEGEND.test(tail)) {
        complete = true;
        if (child.pid) yieldCpu(child.pid, CACHE_SAVING_NICE);
        resolve();
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => out.stderr.write(chunk));
    child.on('exit', (code, signal) => {
      if (code === 0) return resolve();
      if (!complete) return reject(new Error(`the build exited with ${signal ?? code}`));
      options.say?.(`UnlockOS: the build stopped while saving its cache (${signal ?? code}); the app is built`);
    });
  });
  // Usable implies compiled. A build that fails before compiling leaves `compiled` pending: wait on it with `usable`.
  void usable.then(markCompiled, () => undefined);
  return { child, compiled, usable };
}
