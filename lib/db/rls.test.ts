import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTenantGraph, loginClient, type TenantGraph } from '../../tooling/testing/fixtures';

let admin: pg.Client;
let a: TenantGraph;
let b: TenantGraph;

async function sqlstateOf(promise: Promise<unknown>): Promise<string | null> {
  try {
    await promise;
    return null;
  } catch (error) {
    return (error as { code?: string }).code ?? 'unknown';
  }
}

/** Every table of the public schema that holds tenant data: it has a tenant_id column (or is `tenants`). */
async function tenantTables(): Promise<string[]> {
  const { rows } = await admin.query<{ table_name: string }>(`
    select c.relname as table_name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p')
      and (c.relname = 'tenants' or exists (
        select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'tenant_id' and not a.attisdropped))
    order by 1`);
  return rows.map((r) => r.table_name);
}

beforeAll(async () => {
  admin = await adminClient();
  a = await createTenantGraph(admin, 'Tenant A');
  b = await createTenantGraph(admin, 'Tenant B');
});
afterAll(async () => {
  await admin.end();
});

describe('the login role', () => {
  it('gets 42501 on every table until a transaction picks a role', async () => {
    const { rows } = await admin.query<{ relname: string }>(
      `select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'r' order by 1`,
    );
    expect(rows.length).toBeGreaterThan(15);
    const login = await loginClient();
    try {
      for (const { relname } of rows) {
        expect({
          table: relname,
          code: await sqlstateOf(login.query(`select 1 from public.${login.escapeIdentifier(relname)} limit 1`)),
        }).toEqual({
          table: relname,
          code: '42501',
        });
      }
      const owned = await login.query(
        `select count(*)::int as n from pg_class where relowner = (select oid from pg_roles where rolname = current_user)`,
      );
      expect(owned.rows[0].n).toBe(0);
    } finally {
      await login.end();
    }
  });
});

describe('row-level security', () => {
  it('is enabled and forced on every tenant table', async () => {
    const tables = await tenantTables();
    expect(tables).toContain('access_keys');
    const { rows } = await admin.query<{ relname: string; rls: boolean; forced: boolean }>(
      `select relname, relrowsecurity as rls, relforcerowsecurity as forced from pg_class where relname = any($1) and relnamespace = 'public'::regnamespace`,
      [tables],
    );
    for (const row of rows) expect(row, row.relname).toMatchObject({ rls: true, forced: true });
  });

  it("shows tenant A's staff none of tenant B's rows, in any tenant table", async () => {
    const tables = await tenantTables();
    const login = await loginClient();
    try {
      for (const table of tables) {
        const column = table === 'tenants' ? 'id' : 'tenant_id';
        const ident = login.escapeIdentifier(table);
        // The fixture must have given tenant B a row here, or this table is not being tested.
        const { rows: present } = await admin.query(`select count(*)::int as n from ${ident} where ${column} = $1`, [
          b.tenantId,
        ]);
        expect({ table, rowsOfB: present[0].n > 0 }).toEqual({ table, rowsOfB: true });

        await login.query('begin');
        await login.query(
          `select set_config('role', 'app_authenticated', true), set_config('app.tenant_id', $1, true)`,
          [a.tenantId],
        );
        const seen = await login
          .query(`select count(*)::int as n from ${ident} where ${column} = $1`, [b.tenantId])
          .then(
            (r) => ({ visible: r.rows[0].n as number }),
            (error: { code?: string }) => ({ denied: error.code }),
          );
        await login.query('rollback');
        expect({ table, seen }).toSatisfy(
          ({ seen }: { seen: { visible?: number; denied?: string } }) => seen.visible === 0 || seen.denied === '42501',
        );
      }
    } finally {
      await login.end();
    }
  });

  it("refuses tenant A's staff writing a row into tenant B (42501)", async () => {
    const login = await loginClient();
    try {
      await login.query('begin');
      await login.query(`select set_config('role', 'app_authenticated', true), set_config('app.tenant_id', $1, true)`, [
        a.tenantId,
      ]);
      const code = await sqlstateOf(
        login.query('insert into guests (tenant_id, name) values ($1, $2)', [b.tenantId, 'Intruder']),
      );
      await login.query('rollback');
      expect(code).toBe('42501');
    } finally {
      await login.end();
    }
  });

  it('shows nothing at all without a tenant setting', async () => {
    const login = await loginClient();
    try {
      await login.query('begin');
      await login.query(`select set_config('role', 'app_authenticated', true)`);
      const { rows } = await login.query('select count(*)::int as n from reservations');
      await login.query('rollback');
      expect(rows[0].n).toBe(0);
    } finally {
      await login.end();
    }
  });
});

describe('audit_events', () => {
  it('refuses UPDATE and DELETE for every application role and, by trigger, for the owner', async () => {
    const login = await loginClient();
    try {
      for (const role of ['app_service', 'app_authenticated', 'app_anon']) {
        for (const statement of [`update audit_events set reason = 'x'`, 'delete from audit_events']) {
          await login.query('begin');
          await login.query(`select set_config('role', $1, true), set_config('app.tenant_id', $2, true)`, [
            role,
            a.tenantId,
          ]);
          const code = await sqlstateOf(login.query(statement));
          await login.query('rollback');
          expect({ role, statement, code }).toEqual({ role, statement, code: '42501' });
        }
      }
    } finally {
      await login.end();
    }
    expect(
      await sqlstateOf(admin.query(`update audit_events set reason = 'x' where tenant_id = $1`, [a.tenantId])),
    ).toBe('UA001');
    expect(await sqlstateOf(admin.query(`delete from audit_events where tenant_id = $1`, [a.tenantId]))).toBe('UA001');
    const { rows } = await admin.query(
      'select count(*)::int as n, max(reason) as reason from audit_events where tenant_id = $1',
      [a.tenantId],
    );
    expect(rows[0]).toEqual({ n: 1, reason: null });
  });
});

describe('reservations', () => {
  it('keep the reservation and null its guest when the guest is deleted', async () => {
    const graph = await createTenantGraph(admin, 'Deletion');
    await admin.query('delete from guests where id = $1', [graph.guestId]);
    const { rows } = await admin.query('select guest_id, guest_ref_snapshot from reservations where id = $1', [
      graph.reservationId,
    ]);
    expect(rows).toEqual([{ guest_id: null, guest_ref_snapshot: 'guest_ref' }]);
  });

  it('cannot overlap for one room unless cancelled (23P01)', async () => {
    const insert = (status: string) =>
      admin.query(
        `insert into reservations (tenant_id, room_id, starts_at, ends_at, source, status, room_label_snapshot, guest_ref_snapshot)
         values ($1, $2, now() + interval '12 hours', now() + interval '3 days', 'api', $3, '101', 'g')`,
        [a.tenantId, a.roomId, status],
      );
    expect(await sqlstateOf(insert('confirmed'))).toBe('23P01');
    expect(await sqlstateOf(insert('cancelled'))).toBeNull();
  });
});
