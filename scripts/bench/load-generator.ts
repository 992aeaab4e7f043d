// The load of `npm run bench:api`, in its own process (so the server's figures do not share an event
// loop with the client's): saturates one address from `connections` keep-alive connections (undici)
// for `seconds`, then prints one JSON line { requests, seconds, throughput, p50, p99, statuses }.
// Usage: node --import tsx scripts/bench/load-generator.ts '<json of LoadSpec>'
import { Pool } from 'undici';

export type LoadSpec = {
  origin: string;
  path: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  seconds: number;
  connections: number;
};

export type LoadResult = {
  requests: number;
  seconds: number;
  throughput: number;
  p50: number;
  p99: number;
  statuses: Record<string, number>;
  /** This process's own CPU time while loading (user + system), ms: it has ended before the bench reads /proc. */
  cpuMs: number;
};

const spec = JSON.parse(process.argv[2] ?? '{}') as LoadSpec;
const pool = new Pool(spec.origin, { connections: spec.connections });
const latencies: number[] = [];
const statuses: Record<string, number> = {};
// Its own CPU from here on: tsx's start-up is not the load's.
const cpuAtStart = process.cpuUsage();
const started = performance.now();
const deadline = started + spec.seconds * 1000;
await Promise.all(
  Array.from({ length: spec.connections }, async () => {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      let status = 0;
      try {
        const response = await pool.request({
          path: spec.path,
          method: spec.method,
          headers: spec.headers,
          body: spec.body,
        });
        status = response.statusCode;
        await response.body.dump();
      } catch {
        status = 0;
      }
      latencies.push(performance.now() - t0);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  }),
);
const seconds = (performance.now() - started) / 1000;
await pool.close();
latencies.sort((a, b) => a - b);
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0;
const result: LoadResult = {
  requests: latencies.length,
  seconds,
  throughput: latencies.length / seconds,
  p50: pct(0.5),
  p99: pct(0.99),
  statuses,
  cpuMs: ((usage) => (usage.user + usage.system) / 1000)(process.cpuUsage(cpuAtStart)),
};
process.stdout.write(`${JSON.stringify(result)}\n`);
