import fc from 'fast-check';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTenantGraph, loginClient, type TenantGraph } from '../../tooling/testing/fixtures';
import { canTransition, isTerminal, KEY_STATES, type KeyState } from './lifecycle';

let admin: pg.Client;
let login: pg.Client;
let graph: TenantGraph;

beforeAll(async () => {
  admin = await adminClient();
  login = await loginClient();
  graph = await createTenantGraph(admin, 'Fuzz keys');
});
afterAll(async () => {
  await login.end();
  await admin.end();
});

describe('the key state machine under random transitions, through the real SQL', () => {
  it('never reaches an illegal state and never holds two live keys for one check-in or reservation', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ key: fc.integer({ min: 0, max: 1 }), to: fc.constantFrom(...KEY_STATES) }), {
          minLength: 1,
          maxLength: 25,
        }),
        async (steps) => {
          await login.query('begin');
          await login.query(`select set_config('role', 'app_service', true), set_config('app.tenant_id', $1, true)`, [
            graph.tenantId,
          ]);
          // Clear the stage: every live key of the fixture check-in and reservation ends.
          await login.query(
            `update access_keys set status = 'revoked', revoked_reason = 'fuzz reset' where tenant_id = $1 and status in ('pre_issued', 'active')`,
            [graph.tenantId],
          );
          // Two live keys to push around: the reservation's pre-issued key and the check-in's active key.
          const pre = await login.query(
            `insert into access_keys (tenant_id, reservation_id, room_id, status, pin, valid_from, expires_at)
           values ($1, $2, $3, 'pre_issued', '000777', now(), now() + interval '1 day') returning id`,
            [graph.tenantId, graph.reservationId, graph.roomId],
          );
          const active = await login.query(
            `insert into access_keys (tenant_id, reservation_id, check_in_id, room_id, status, pin, valid_from, expires_at)
           values ($1, $2, $3, $4, 'active', '000888', now(), now() + interval '1 day') returning id`,
            [graph.tenantId, graph.reservationId, graph.checkInId, graph.roomId],
          );
          const ids: string[] = [pre.rows[0].id, active.rows[0].id];
          const model: KeyState[] = ['pre_issued', 'active'];
          for (const step of steps) {
            const index = step.key % ids.length;
            const from = model[index]!;
            await login.query('savepoint step');
            const ok = await login
              .query(
                `update access_keys set status = $2::key_status,
                 revoked_reason = case when $2::text = 'revoked' then 'fuzz' else revoked_reason end,
                 check_in_id = case when $2::text = 'active' then $3::uuid else check_in_id end
               where id = $1`,
                [ids[index], step.to, graph.checkInId],
              )
              .then(
                () => true,
                () => false,
              );
            if (ok) {
              await login.query('release savepoint step');
              // A live key may be rewritten in place; an ended key never, not even to its own state.
              const allowed = canTransition(from, step.to) || (from === step.to && !isTerminal(from));
              expect({ from, to: step.to, allowed }).toEqual({ from, to: step.to, allowed: true });
              model[index] = step.to;
            } else {
              await login.query('rollback to savepoint step');
              // Refused either as an illegal transition or by a uniqueness rule (a second live key).
              const { rows } = await login.query(
                `select count(*)::int as n from access_keys where tenant_id = $1 and check_in_id = $2 and status = 'active'`,
                [graph.tenantId, graph.checkInId],
              );
              const allowed = canTransition(from, step.to) || (from === step.to && !isTerminal(from));
              expect(!allowed || rows[0].n >= 1).toBe(true);
            }
            const { rows: db } = await login.query(`select status from access_keys where id = $1`, [ids[index]]);
            expect(db[0].status).toBe(model[index]);
            const live = await login.query(
              `select (select count(*)::int from access_keys where tenant_id = $1 and check_in_id = $2 and status = 'active') as active,
                    (select count(*)::int from access_keys where tenant_id = $1 and reservation_id = $3 and status = 'pre_issued') as pre`,
              [graph.tenantId, graph.checkInId, graph.reservationId],
            );
            expect(live.rows[0].active).toBeLessThanOrEqual(1);
            expect(live.rows[0].pre).toBeLessThanOrEqual(1);
          }
          await login.query('rollback');
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);
});
