import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { disconnectDb, onNewConnection } from '../db/client';
import { serviceStatement, statement } from '../db/tx';
import { backendNiceFromEnv, launcherBackendNice, reniceBackend, reniceEachConnection } from './renice-backends';

// The worker's PostgreSQL backends yield the CPU to the web processes' acknowledgements, but only
// when the launcher owns the server, only for backends of this machine, and never at the cost of
// the worker: a backend that cannot be reniced keeps its priority and the worker goes on.

const autogroupNice = (pid: number) => {
  const file = `/proc/${pid}/autogroup`;
  return existsSync(file) ? Number(/nice (-?\d+)/.exec(readFileSync(file, 'utf8'))?.[1]) : null;
};

async function backendPid(client: pg.Client): Promise<number> {
  return (await client.query('select pg_backend_pid() as pid')).rows[0].pid as number;
}

const clients: pg.Client[] = [];
async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: process.env.APP_DATABASE_URL });
  await client.connect();
  clients.push(client);
  return client;
}
afterAll(async () => {
  await Promise.all(clients.map((c) => c.end()));
  await disconnectDb();
});

describe('backendNiceFromEnv', () => {
  it('is off unless the launcher names a nice value from 1 to 19', () => {
    expect(backendNiceFromEnv({})).toBeNull();
    expect(backendNiceFromEnv({ WORKER_DB_NICE: '' })).toBeNull();
    expect(backendNiceFromEnv({ WORKER_DB_NICE: '0' })).toBeNull();
    expect(backendNiceFromEnv({ WORKER_DB_NICE: '-5' })).toBeNull();
    expect(backendNiceFromEnv({ WORKER_DB_NICE: '20' })).toBeNull();
    expect(backendNiceFromEnv({ WORKER_DB_NICE: '10; rm -rf /' })).toBeNull();
    expect(backendNiceFromEnv({ WORKER_DB_NICE: '10' })).toBe(10);
    expect(backendNiceFromEnv({ WORKER_DB_NICE: ' 19 ' })).toBe(19);
  });
});

describe('launcherBackendNice', () => {
  it("nices the embedded server's backends like the worker, and leaves an operator's DATABASE_URL alone unless told", () => {
    expect(launcherBackendNice(true, {})).toBe('10');
    expect(launcherBackendNice(true, { WORKER_NICE: '5' })).toBe('5');
    expect(launcherBackendNice(true, { WORKER_NICE: '0' })).toBe('0');
    expect(launcherBackendNice(true, { WORKER_NICE: '5', WORKER_DB_NICE: '15' })).toBe('15');
    expect(launcherBackendNice(false, { WORKER_NICE: '10' })).toBe('');
    expect(backendNiceFromEnv({ WORKER_DB_NICE: launcherBackendNice(false, {}) })).toBeNull();
    expect(launcherBackendNice(false, { WORKER_DB_NICE: '10' })).toBe('10');
  });
});

describe('reniceBackend', () => {
  it('lowers the priority of a local backend, and of its autogroup (each backend is a session of its own)', async () => {
    const pid = await backendPid(await connect());
    expect(getPriority(pid)).toBe(0);
    expect(reniceBackend(pid, 10)).toBe('reniced');
    expect(getPriority(pid)).toBe(10);
    const group = autogroupNice(pid);
    if (group !== null) expect(group).toBe(10);
  });

  it('leaves a process that is not a PostgreSQL backend alone (a pid from another server names something else here)', async () => {
    const other = spawn('sleep', ['30']);
    try {
      expect(reniceBackend(other.pid!, 10)).toBe('skipped');
      expect(getPriority(other.pid!)).toBe(0);
      expect(reniceBackend(process.pid, 10)).toBe('skipped');
      expect(getPriority(process.pid)).toBe(0);
    } finally {
      other.kill();
    }
  });

  it('reports a pid that is gone, or none, without throwing', () => {
    expect(reniceBackend(2 ** 22 + 7, 10)).toBe('skipped');
    expect(reniceBackend(Number(undefined), 10)).toBe('skipped');
    expect(reniceBackend(0, 10)).toBe('skipped');
  });

  it('reports a refused renice as failed, without throwing (the backend keeps its priority)', () => {
    const refused = {
      readFile: () => 'postgres\n',
      writeFile: () => {},
      setPriority: () => {
        throw Object.assign(new Error('EACCES'), { code: 'EACCES' });
      },
    };
    expect(reniceBackend(1234, 10, refused)).toBe('failed');
  });

  it('still counts a backend as reniced when autogroup scheduling is off', () => {
    const noAutogroup = {
      readFile: () => 'postgres\n',
      writeFile: () => {
        throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
      },
      setPriority: () => {},
    };
    expect(reniceBackend(1234, 10, noAutogroup)).toBe('reniced');
  });
});

describe('reniceEachConnection', () => {
  it("renices every backend the process's pools open from then on, and only those", async () => {
    const before = await backendPid(await connect());
    const failures: unknown[] = [];
    let stop = () => {};
    const counts = reniceEachConnection(
      (listener) => {
        stop = onNewConnection(listener);
      },
      12,
      (pid) => failures.push(pid),
    );
    // The service pool opens its connections now: each is reniced before its first statement.
    const rows = await Promise.all(
      [1, 2, 3].map(() =>
        serviceStatement(statement<{ pid: number }>('select pg_backend_pid() as pid, pg_sleep(0.05)'), []),
      ),
    );
    stop();
    const pids = [...new Set(rows.map((r) => r[0]!.pid))];
    expect(pids.length).toBeGreaterThan(0);
    for (const pid of pids) expect(getPriority(pid)).toBe(12);
    expect(counts.reniced).toBe(pids.length);
    expect(failures).toEqual([]);
    // A connection opened before, or outside the pools (the web's, another client), keeps its priority.
    expect(getPriority(before)).toBe(0);
  });

  it('reports the first connection it could not renice and goes on', () => {
    let listener: (client: object) => void = () => {};
    const failures: unknown[] = [];
    const counts = reniceEachConnection(
      (l) => {
        listener = l;
      },
      10,
      (pid) => failures.push(pid),
    );
    listener({ processID: null });
    listener({});
    expect(counts).toEqual({ reniced: 0, skipped: 2, failed: 0 });
    expect(failures).toEqual([null]);
  });
});
