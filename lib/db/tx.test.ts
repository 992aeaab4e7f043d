import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { adminClient, createTenantGraph, type TenantGraph } from '../../tooling/testing/fixtures';
import { db } from './client';
import {
  asService,
  effectStatement,
  runInTransaction,
  runStatements,
  serviceStatement,
  statement,
  sqlLiteral,
  withTenant,
  type Statement,
  type Tx,
} from './tx';

let admin: pg.Client;
let a: TenantGraph;
let b: TenantGraph;

beforeAll(async () => {
  admin = await adminClient();
  a = await createTenantGraph(admin, 'Tx A');
  b = await createTenantGraph(admin, 'Tx B');
});
afterAll(async () => {
  await admin.end();
});

describe('withTenant and asService', () => {
  it('switch role and settings for the transaction only', async () => {
    const inside = await withTenant(
      { tenantId: a.tenantId, userId: a.userId },
      (tx) =>
        tx.$queryRaw<{ role: string; tenant: string; user_id: string }[]>`select current_user as role,
        current_setting('app.tenant_id') as tenant, current_setting('app.user_id') as user_id`,
    );
    expect(inside).toEqual([{ role: 'app_authenticated', tenant: a.tenantId, user_id: a.userId }]);
    expect(await asService((tx) => tx.$queryRaw<{ role: string }[]>`select current_user as role`)).toEqual([
      { role: 'app_service' },
    ]);
    const after = await db().$queryRaw<{ role: string }[]>`select current_user as role`;
    expect(after).toEqual([{ role: 'app_login' }]);
  });

  it('serviceStatement runs as the service role with no tenant, on connections the staff paths never get', async () => {
    const [row] = await serviceStatement(
      statement<{ role: string; login: string; tenant: string | null }>(
        `select current_user as role, session_user as login, nullif(current_setting('app.tenant_id', true), '') as tenant`,
      ),
      [],
    );
    expect(row).toEqual({ role: 'app_service', login: 'app_login', tenant: null });
    // The shared pool's connections are still the login role, which can read nothing alone.
    expect(await db().$queryRaw<{ role: string }[]>`select current_user as role`).toEqual([{ role: 'app_login' }]);
    await expect(db().$queryRaw`select count(*) from rooms`).rejects.toThrow();
    // A failing statement rolls back and maps its SQLSTATE like every other path.
    const before = await admin.query(`select count(*)::int as n from audit_events where tenant_id = $1`, [a.tenantId]);
    expect(before.rows[0].n).toBeGreaterThan(0);
    await expect(
      serviceStatement(statement(`update audit_events set action = 'x' where tenant_id = $1::uuid`), [a.tenantId]),
    ).rejects.toBeInstanceOf(AppError);
    const unchanged = await admin.query(
      `select count(*)::int as n from audit_events where tenant_id = $1 and action = 'x'`,
      [a.tenantId],
    );
    expect(unchanged.rows[0].n).toBe(0);
  });

  it('scope Prisma queries to the tenant even without a where clause', async () => {
    const rooms = await withTenant({ tenantId: a.tenantId }, (tx) => tx.room.findMany());
    expect(rooms.map((r) => r.tenantId)).toEqual([a.tenantId]);
    expect(
      await withTenant({ tenantId: a.tenantId }, (tx) => tx.room.findMany({ where: { tenantId: b.tenantId } })),
    ).toEqual([]);
  });

  it('turn SQLSTATEs into typed domain errors and roll everything back', async () => {
    // Writes run as the service role scoped to the tenant (staff sessions only read: 42501 → forbidden).
    const attempt = asService({ tenantId: a.tenantId }, async (tx) => {
      await tx.guest.create({ data: { tenantId: a.tenantId, name: 'Rolled back' } });
      await tx.$executeRaw`update access_keys set status = 'pre_issued' where id = ${a.keyId}::uuid`;
    });
    await expect(attempt).rejects.toMatchObject({
      code: 'illegal_transition',
      details: { from: 'active', to: 'pre_issued' },
    });
    await expect(attempt).rejects.toBeInstanceOf(AppError);
    const { rows } = await admin.query(`select count(*)::int as n from guests where name = 'Rolled back'`);
    expect(rows[0].n).toBe(0);

    const overlap = asService({ tenantId: a.tenantId }, (tx) =>
      tx.reservation.create({
        data: {
          tenantId: a.tenantId,
          roomId: a.roomId,
          startsAt: new Date(Date.now() + 3_600_000),
          endsAt: new Date(Date.now() + 7_200_000),
          source: 'api',
          roomLabelSnapshot: '101',
          guestRefSnapshot: 'g',
        },
      }),
    );
    await expect(overlap).rejects.toMatchObject({ code: 'room_unavailable' });

    const denied = asService({ tenantId: a.tenantId }, (tx) =>
      tx.guest.create({ data: { tenantId: b.tenantId, name: 'Intruder' } }),
    );
    await expect(denied).rejects.toMatchObject({ code: 'forbidden' });
    const staffWrite = withTenant({ tenantId: a.tenantId }, (tx) =>
      tx.guest.create({ data: { tenantId: a.tenantId, name: 'Staff by hand' } }),
    );
    await expect(staffWrite).rejects.toMatchObject({ code: 'forbidden' });
  });
});

describe('a transaction aborted by a concurrent one', () => {
  // Two transactions take two advisory locks in opposite orders, each waiting until the other holds its
  // first: PostgreSQL finds the deadlock and aborts one. (It happened for real in CI: a check-in against
  // the worker's door updates failed with 40P01 instead of being run again.)
  it('runs again from the start, so both commit; other errors are not retried', async () => {
    const [k1, k2] = [Math.floor(Math.random() * 1e9), Math.floor(Math.random() * 1e9) + 1e9];
    const runs = { first: 0, second: 0 };
    let signalFirst!: () => void;
    let signalSecond!: () => void;
    const firstHolds = new Promise<void>((resolve) => (signalFirst = resolve));
    const secondHolds = new Promise<void>((resolve) => (signalSecond = resolve));
    const take = (tx: Tx, key: number) => tx.$executeRaw`select pg_advisory_xact_lock(${BigInt(key)})`;

    const first = asService({ tenantId: a.tenantId }, async (tx) => {
      runs.first += 1;
      await take(tx, k1);
      signalFirst();
      if (runs.first === 1) await secondHolds;
      await take(tx, k2);
      return 'first';
    });
    const second = asService({ tenantId: a.tenantId }, async (tx) => {
      runs.second += 1;
      await take(tx, k2);
      signalSecond();
      if (runs.second === 1) await firstHolds;
      await take(tx, k1);
      return 'second';
    });

    expect(await Promise.all([first, second])).toEqual(['first', 'second']);
    // Exactly one of them was aborted and ran a second time.
    expect(runs.first + runs.second).toBe(3);

    let uniqueRuns = 0;
    await expect(
      asService({ tenantId: a.tenantId }, async (tx) => {
        uniqueRuns += 1;
        await tx.$executeRaw`select 1 / 0`;
      }),
    ).rejects.toBeDefined();
    expect(uniqueRuns).toBe(1);
  });
});

describe('one Statement, in a transaction or in one round trip', () => {
  const roomLabel = (tenantId: string, roomId: string): Statement<string[]> => ({
    sql: `select label from rooms where tenant_id = ${sqlLiteral(tenantId, 'uuid')} and id = ${sqlLiteral(roomId, 'uuid')}`,
    rows: (rows) => rows.map((row) => row.label as string),
  });

  it('maps the same rows either way, scoped to the tenant, and sends nothing for a null statement', async () => {
    const once = await runStatements({ role: 'app_service', tenantId: a.tenantId }, [
      roomLabel(a.tenantId, a.roomId),
      roomLabel(a.tenantId, b.roomId),
      { sql: null, rows: (rows) => rows.length },
    ]);
    const inTx = await asService({ tenantId: a.tenantId }, (tx) =>
      runInTransaction(tx, [
        roomLabel(a.tenantId, a.roomId),
        roomLabel(a.tenantId, b.roomId),
        { sql: null, rows: (rows) => rows.length },
      ]),
    );
    expect(inTx).toEqual(once);
    expect(once[0]).toHaveLength(1);
    expect(once[1]).toEqual([]);
    expect(once[2]).toBe(0);
  });

  it('runs an effect statement whose result Prisma cannot read (a void function) as a command', async () => {
    const [done] = await asService({ tenantId: a.tenantId }, (tx) =>
      runInTransaction(tx, [effectStatement(`select pg_sleep(0)`)]),
    );
    expect(done).toBeUndefined();
  });
});
