import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, asRole, createTenantGraph, type TenantGraph } from '../../tooling/testing/fixtures';

// Staff (app_authenticated) read their tenant's rows; every write goes through the domain
// functions as the service role, which audit the change and queue the lock commands. A staff
// session that writes access_keys or reservations directly would bypass both.

let admin: pg.Client;
let graph: TenantGraph;
beforeAll(async () => {
  admin = await adminClient();
  graph = await createTenantGraph(admin, 'Grants');
});
afterAll(async () => {
  await admin.end();
});

/** 'ok', or the SQLSTATE a staff session in the fixture's tenant gets for `sql`. */
async function asStaff(sql: string, params: unknown[] = []): Promise<string> {
  const result = await asRole('app_authenticated', graph.tenantId, sql, params);
  return 'code' in result ? result.code : 'ok';
}

describe('the staff role', () => {
  it('has no INSERT, UPDATE, DELETE or TRUNCATE privilege on any table of the application', async () => {
    const { rows } = await admin.query<{ table: string; privilege: string }>(`
      select c.relname as table, p.privilege
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        cross join unnest(array['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE']) as p(privilege)
       where n.nspname = 'public' and c.relkind in ('r', 'p')
         and has_table_privilege('app_authenticated', c.oid, p.privilege)
       order by 1, 2`);
    expect(rows).toEqual([]);
  });

  it('is refused (42501) when it writes keys, reservations, check-ins or guest links directly, in its own tenant', async () => {
    const attempts: [string, string, unknown[]][] = [
      ['revive a key', `update access_keys set status = 'active' where id = $1`, [graph.keyId]],
      [
        'stretch a key',
        `update access_keys set expires_at = expires_at + interval '30 days' where id = $1`,
        [graph.keyId],
      ],
      [
        'mint a key',
        `insert into access_keys (tenant_id, reservation_id, check_in_id, room_id, status, pin, valid_from, expires_at)
                      values ($1, $2, $3, $4, 'active', '999999', now(), now() + interval '1 day')`,
        [graph.tenantId, graph.reservationId, graph.checkInId, graph.roomId],
      ],
      ['un-cancel a reservation', `update reservations set status = 'confirmed' where id = $1`, [graph.reservationId]],
      [
        'insert a reservation',
        `insert into reservations (tenant_id, room_id, starts_at, ends_at, source, room_label_snapshot, guest_ref_snapshot)
                                values ($1, $2, now() + interval '9 days', now() + interval '10 days', 'desk', '101', 'g')`,
        [graph.tenantId, graph.roomId],
      ],
      [
        'check in by hand',
        `insert into check_ins (tenant_id, reservation_id) values ($1, $2)`,
        [graph.tenantId, graph.reservationId],
      ],
      [
        'revive a guest link',
        `update guest_links set expires_at = now() + interval '1 year' where reservation_id = $1`,
        [graph.reservationId],
      ],
      ['delete a guest', `delete from guests where id = $1`, [graph.guestId]],
      ['rename a room', `update rooms set label = 'someone-elses-room' where id = $1`, [graph.roomId]],
      [
        'point a key at another lock',
        `update key_lock_codes set state = 'removed' where key_id in (select id from access_keys where room_id = $1)`,
        [graph.roomId],
      ],
      ['add a door to a room', `delete from room_locks where room_id = $1`, [graph.roomId]],
    ];
    for (const [what, sql, params] of attempts) {
      expect({ what, code: await asStaff(sql, params) }).toEqual({ what, code: '42501' });
    }
  });

  it('still reads its own tenant’s rows', async () => {
    expect(await asStaff(`select id from access_keys where tenant_id = $1`, [graph.tenantId])).toBe('ok');
    expect(await asStaff(`select id from reservations where tenant_id = $1`, [graph.tenantId])).toBe('ok');
  });
});
