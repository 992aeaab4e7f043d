import { cpus, totalmem } from 'node:os';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Sample } from './load-generator';

export type Measurement = {
  name: string;
  concurrency: number;
  ops: number;
  seconds: number;
  throughput: number;
  p50: number;
  p99: number;
};

/** Runs `op` from `concurrency` callers for `seconds` (or until `maxOps`), timing each call. */
export async function measure(
  name: string,
  concurrency: number,
  seconds: number,
  op: (i: number) => Promise<unknown>,
  maxOps = Infinity,
): Promise<Measurement> {
  const latencies: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline && next < maxOps) {
        const i = next++;
        const t0 = performance.now();
        await op(i);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0;
  return {
    name,
    concurrency,
    ops: latencies.length,
    seconds: elapsed,
    throughput: latencies.length / elapsed,
    p50: pct(0.5),
    p99: pct(0.99),
  };
}

export function machine(): string {
  const cpu = cpus()[0]?.model ?? 'unknown cpu';
  return `${cpus().length} × ${cpu}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
}

export function table(rows: Measurement[]): string {
  const lines = ['| measurement | clients | ops | ops/s | p50 ms | p99 ms |', '|---|---:|---:|---:|---:|---:|'];
  for (const r of rows)
    lines.push(
      `| ${r.name} | ${r.concurrency} | ${r.ops} | ${r.throughput.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} |`,
    );
  return lines.join('\n');
}

/** Replaces (or appends) one `## section` of docs/PERFORMANCE.md, keeping the others. */
export function writeSection(title: string, body: string): void {
  const file = path.join(process.cwd(), 'docs', 'PERFORMANCE.md');
  const header =
    '# Performance\n\nMeasured figures, each with the command that produced it. Targets are ratios to a baseline measured in the same run.\n';
  const current = existsSync(file) ? readFileSync(file, 'utf8') : header;
  const marker = `## ${title}`;
  const sections = current.split(/\n(?=## )/);
  const next = `${marker}\n\n${body.trim()}\n`;
  const index = sections.findIndex((s) => s.startsWith(marker));
  if (index >= 0) sections[index] = next;
  else sections.push(next);
  writeFileSync(file, `${sections.map((s) => s.trimEnd()).join('\n\n')}\n`);
}

/**
 * CPU time (ms, user + system) used so far by this machine's processes, grouped by part of the
 * system — from /proc, so it sees PostgreSQL's backends, the workers and the kernel's own threads.
 * `self` is the calling process (the load generator in the benches).
 */
export function cpuByPart(only?: ReadonlySet<number>): Map<string, number> {
  const parts = new Map<string, number>();
  if (!existsSync('/proc/self/stat')) return parts;
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    if (only && !only.has(Number(pid))) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      const part =
        // The bench itself, or a load generator it forked (scripts/bench/load-*.ts).
        Number(pid) === process.pid || cmdline.includes('scripts/bench/load-')
          ? 'load generator'
          : comm === 'postgres'
            ? 'PostgreSQL'
            : cmdline.includes('load-generator')
              ? 'load generator'
              : cmdline.includes('worker.ts')
                ? 'worker'
                : cmdline.includes('simulator.ts')
                  ? 'lock simulator'
                  : cmdline.includes('mail-catcher.ts')
                    ? 'mail catcher'
                    : comm.startsWith('next') || cmdline.includes('next\0start') || cmdline.includes('web-server.mjs')
                      ? 'web'
                      : comm.startsWith('kworker')
                        ? 'kernel workers'
                        : 'other';
      // utime and stime, in clock ticks (100 per second on Linux).
      parts.set(part, (parts.get(part) ?? 0) + (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // The process ended between listing and reading.
    }
  }
  return parts;
}

/**
 * The process `root` (default: this one) and every process descended from it, from /proc: with
 * `cpuByPart(processTree())` a bench counts only the system it started, not what else the machine runs.
 */
export function processTree(root = process.pid): Set<number> {
  const parentOf = new Map<number, number>();
  if (!existsSync('/proc/self/stat')) return new Set([root]);
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended between listing and reading.
    }
  }
  const tree = new Set([root]);
  for (const pid of parentOf.keys()) {
    const chain: number[] = [];
    let at: number | undefined = pid;
    while (at !== undefined && at > 1 && !tree.has(at) && chain.length < 64) {
      chain.push(at);
      at = parentOf.get(at);
    }
    if (at !== undefined && tree.has(at)) for (const p of chain) tree.add(p);
  }
  return tree;
}

/** CPU ms per operation for each part, between two `cpuByPart()` readings. */
export function cpuPerOp(
  before: Map<string, number>,
  after: Map<string, number>,
  ops: number,
): { part: string; ms: number }[] {
  return [...after]
    .map(([part, ms]) => ({ part, ms: (ms - (before.get(part) ?? 0)) / ops }))
    .filter((row) => row.ms >= 0.01)
    .sort((a, b) => b.ms - a.ms);
}

/** The latency (ms) below which a share `p` of a load generator's samples fall (0 when there are none). */
export function latencyAt(samples: Sample[], p: number): number {
  const sorted = samples.map((s) => s[1]).sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}

/** Requests a second over a phase: from its start to the last answer. */
export function throughputOf(samples: Sample[]): number {
  return samples.length / (Math.max(...samples.map((s) => s[0] + s[1])) / 1000);
}
