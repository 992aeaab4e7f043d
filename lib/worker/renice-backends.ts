import { readFileSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * The nice value for the PostgreSQL backends that serve this worker (`WORKER_DB_NICE`, 1–19), or
 * null when they keep the server's priority. The launcher sets it only when it runs the embedded
 * server itself: with an operator's DATABASE_URL the backends may be on another machine, where a
 * backend's pid names nothing here (or something else), so they are left alone.
 */
export function backendNiceFromEnv(env: Record<string, string | undefined> = process.env): number | null {
  const raw = env.WORKER_DB_NICE?.trim();
  if (!raw || !/^\d+$/.test(raw)) return null;
  const nice = Number(raw);
  return nice >= 1 && nice <= 19 ? nice : null;
}

/**
 * What the launcher gives its workers as WORKER_DB_NICE: the worker's own nice (WORKER_NICE, 10)
 * when it runs the embedded server, unless the operator chose; with an operator's DATABASE_URL,
 * only what the operator set.
 */
export function launcherBackendNice(embedded: boolean, env: Record<string, string | undefined>): string {
  return embedded ? (env.WORKER_DB_NICE ?? env.WORKER_NICE ?? '10') : (env.WORKER_DB_NICE ?? '');
}

export type ReniceOutcome = 'reniced' | 'skipped' | 'failed';

type Io = {
  readFile: (path: string) => string;
  writeFile: (path: string, data: string) => void;
  setPriority: (pid: number, nice: number) => void;
};
const SYSTEM_IO: Io = {
  readFile: (path) => readFileSync(path, 'utf8'),
  writeFile: (path, data) => writeFileSync(path, data),
  setPriority: (pid, nice) => setPriority(pid, nice),
};

/**
 * Lowers the CPU priority of one PostgreSQL backend of this machine, so the work it does for the
 * worker yields to the web processes' acknowledgements (docs/PERFORMANCE.md, Webhook
 * acknowledgement). Every PostgreSQL backend calls setsid(), so with the kernel's autogroup
 * scheduling (on by default) each backend is a scheduling group of its own, which a process nice
 * value does not reach: the group's nice (/proc/<pid>/autogroup) is set too. A pid that is not a
 * local `postgres` process is skipped; an error (no permission, the backend gone) is reported, never
 * thrown. Raising a nice value needs no privilege for one's own processes; the embedded server runs
 * as this user, or as `postgres` when the launcher runs as root.
 */
export function reniceBackend(pid: number, nice: number, io: Io = SYSTEM_IO): ReniceOutcome {
  try {
    if (!Number.isInteger(pid) || pid <= 0) return 'skipped';
    if (io.readFile(`/proc/${pid}/comm`).trim() !== 'postgres') return 'skipped';
  } catch {
    return 'skipped'; // no such process here
  }
  try {
    io.setPriority(pid, nice);
  } catch {
    return 'failed';
  }
  try {
    io.writeFile(`/proc/${pid}/autogroup`, String(nice));
  } catch {
    // Autogroup scheduling is off (no such file), or not ours to change: the nice value is what counts then.
  }
  return 'reniced';
}

/** A connection from node-postgres, which knows its backend's pid from the server's BackendKeyData. */
type Connected = { processID?: number | null };

/**
 * Renices the backend of every connection a pool opens from now on; returns how the connections
 * fared so far (for the worker's log). Never fails the pool.
 */
export function reniceEachConnection(
  subscribe: (listener: (client: object) => void) => void,
  nice: number,
  onFirstFailure: (pid: number | null | undefined) => void = () => {},
  io: Io = SYSTEM_IO,
): Record<ReniceOutcome, number> {
  const counts: Record<ReniceOutcome, number> = { reniced: 0, skipped: 0, failed: 0 };
  subscribe((client) => {
    // node-postgres keeps the pid from BackendKeyData as `processID` (not in its types).
    const pid = (client as Connected).processID;
    const outcome = reniceBackend(Number(pid), nice, io);
    counts[outcome] += 1;
    if (outcome !== 'reniced' && counts.skipped + counts.failed === 1) onFirstFailure(pid);
  });
  return counts;
}
