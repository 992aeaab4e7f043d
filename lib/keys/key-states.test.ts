import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminClient,
  bookRoom,
  createBookableTenant,
  createTenantGraph,
  type TenantGraph,
} from '../../tooling/testing/fixtures';
import { KEY_STATES, KEY_TRANSITIONS, assertTransition, canTransition, isTerminal } from './lifecycle';

let admin: pg.Client;
let graph: TenantGraph;

beforeAll(async () => {
  admin = await adminClient();
  graph = await createTenantGraph(admin, 'Keys');
});
afterAll(async () => {
  await admin.end();
});

async function keyIn(status: string): Promise<string> {
  const { rows } = await admin.query<{ id: string }>(
    `insert into access_keys (tenant_id, reservation_id, check_in_id, room_id, status, pin, valid_from, expires_at, revoked_reason)
     values ($1, $2, $3, $4, $5, lpad((floor(random() * 1e6))::int::text, 6, '0'), now(), now() + interval '1 day', $6) returning id`,
    [
      graph.tenantId,
      graph.reservationId,
      status === 'active' ? graph.checkInId : null,
      graph.roomId,
      status === 'active' ? 'active' : 'pre_issued',
      null,
    ],
  );
  const id = rows[0]!.id;
  if (status === 'revoked')
    await admin.query(`update access_keys set status = 'revoked', revoked_reason = 'test' where id = $1`, [id]);
  if (status === 'expired') await admin.query(`update access_keys set status = 'expired' where id = $1`, [id]);
  return id;
}

describe('key lifecycle', () => {
  it('agrees with the database trigger on every pair of states', async () => {
    await admin.query(
      `update access_keys set status = 'revoked', revoked_reason = 'clear' where tenant_id = $1 and status in ('active', 'pre_issued')`,
      [graph.tenantId],
    );
    for (const from of KEY_STATES) {
      for (const to of KEY_STATES) {
        const id = await keyIn(from);
        const result = await admin
          .query(
            `update access_keys set status = $2::key_status, revoked_reason = case when $2::text = 'revoked' then 'test' else revoked_reason end,
               check_in_id = case when $2::text = 'active' then $3::uuid else check_in_id end where id = $1`,
            [id, to, graph.checkInId],
          )
          .then(
            () => 'ok',
            (error: { code?: string }) => error.code,
          );
        // A live key may be updated in place (its window changes); an ended key not even to its own state.
        const allowed = canTransition(from, to) || (from === to && !isTerminal(from));
        expect({ from, to, result }).toEqual({ from, to, result: allowed ? 'ok' : 'UK001' });
        await admin.query(
          `update access_keys set status = 'revoked', revoked_reason = 'clear' where id = $1 and status in ('active', 'pre_issued')`,
          [id],
        );
      }
    }
  });

  it('names the states of the database enum, in its order (the trigger and the table share one list)', async () => {
    const { rows } = await admin.query<{ label: string }>(`select unnest(enum_range(null::key_status))::text as label`);
    expect(rows.map((row) => row.label)).toEqual([...KEY_STATES]);
  });

  it('treats revoked and expired as terminal', () => {
    expect(KEY_TRANSITIONS.revoked).toEqual([]);
    expect(KEY_TRANSITIONS.expired).toEqual([]);
    expect(() => assertTransition('revoked', 'active')).toThrowError(
      expect.objectContaining({ code: 'illegal_transition', details: { from: 'revoked', to: 'active' } }),
    );
  });

  it('allows one live PIN per room and one active key per check-in (23505)', async () => {
    await admin.query(
      `update access_keys set status = 'revoked', revoked_reason = 'clear' where tenant_id = $1 and status in ('active', 'pre_issued')`,
      [graph.tenantId],
    );
    const { rows } = await admin.query<{ id: string }>(
      `insert into reservations (tenant_id, room_id, starts_at, ends_at, source, room_label_snapshot, guest_ref_snapshot)
       values ($1, $2, now() + interval '10 days', now() + interval '11 days', 'api', '101', 'g') returning id`,
      [graph.tenantId, graph.roomId],
    );
    const later = rows[0]!.id;
    const insert = (reservationId: string, checkInId: string | null, pin: string) =>
      admin
        .query(
          // Each key inside its own stay: two stays' keys never share the door's time (room_holds_no_overlap).
          `insert into access_keys (tenant_id, reservation_id, check_in_id, room_id, status, pin, valid_from, expires_at)
           select $1, $2, $3, $4, case when $3::uuid is null then 'pre_issued' else 'active' end::key_status, $5,
                  r.starts_at, r.ends_at
             from reservations r where r.id = $2`,
          [graph.tenantId, reservationId, checkInId, graph.roomId, pin],
        )
        .then(
          () => 'ok',
          (error: { code?: string; constraint?: string }) => `${error.code} ${error.constraint}`,
        );
    expect(await insert(graph.reservationId, graph.checkInId, '482913')).toBe('ok');
    expect(await insert(later, null, '482913')).toBe('23505 access_keys_one_live_pin_per_room');
    expect(await insert(graph.reservationId, graph.checkInId, '777001')).toBe(
      '23505 access_keys_one_active_per_check_in',
    );
    expect(await insert(later, null, '777002')).toBe('ok');
    expect(await insert(later, null, '777003')).toBe('23505 access_keys_one_pre_issued_per_reservation');
  });
});

describe('an ended key is a record, not a key (issue 28, item 12)', () => {
  it('refuses any change to an ended key but its lock-sync bookkeeping: PIN, room, kind, stay, links, labels', async () => {
    const t = await createBookableTenant({ rooms: 2 });
    const { reservationId } = await bookRoom({ tenantId: t.tenantId, roomId: t.roomIds[0]! });
    const { rows } = await admin.query<{ id: string }>(
      `update access_keys set status = 'revoked', revoked_reason = 'ended for the test'
        where reservation_id = $1 and status = 'pre_issued' returning id`,
      [reservationId],
    );
    const keyId = rows[0]!.id;
    const change = (set: string, params: unknown[] = []) =>
      admin.query(`update access_keys set ${set} where id = $1`, [keyId, ...params]).then(
        () => 'changed',
        (error: { code?: string }) => error.code,
      );
    expect(await change(`pin = '90817263'`)).toMatch(/^UK00[12]$/);
    expect(await change(`room_id = $2`, [t.roomIds[1]])).toMatch(/^UK00[12]$/);
    expect(await change(`kind = 'backup', backup_for = id`)).toMatch(/^UK00[12]$/);
    expect(await change(`check_in_id = null, reservation_id = null`)).toMatch(/^UK00[12]$/);
    expect(await change(`replaces = id`)).toMatch(/^UK00[12]$/);
    expect(await change(`created_at = now() - interval '1 year'`)).toMatch(/^UK00[12]$/);
    expect(await change(`pin_revealed_at = now()`)).toMatch(/^UK00[12]$/);
    // What the lock says of its removal stays writable.
    expect(await change(`vendor_sync = 'synced', vendor_error = null`)).toBe('changed');
  });

  it('refuses a live key’s kind changing: what a key is for is part of its identity', async () => {
    const t = await createBookableTenant();
    const { reservationId } = await bookRoom({ tenantId: t.tenantId, roomId: t.roomIds[0]! });
    const result = await admin
      .query(
        `update access_keys set kind = 'backup', backup_for = id where reservation_id = $1 and status = 'pre_issued'`,
        [reservationId],
      )
      .then(
        () => 'changed',
        (error: { code?: string }) => error.code,
      );
    expect(result).toBe('UK002');
  });
});
