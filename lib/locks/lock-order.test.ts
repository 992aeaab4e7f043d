import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applyLockEvent } from './lock-events';
import { addRoomLock } from './locks';
import { registerLockProvider } from './tenant-provider';
import { fakeDevice, fakeLockProvider, tenantOnProvider } from '../../tooling/testing/fake-lock-provider';
import { adminClient, bookRoom, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { programKeyOnLock } from './sync-provider';

// A revocation, an expiry or a check-in locks the key and then, by trigger, its doors. The worker
// and the providers' events write a door, whose trigger then syncs the key. If a door writer took
// the door first, each would hold what the other waits for (40P01, seen in CI between the worker
// and a check-in). These tests hold a key the way a revocation does, let a door writer run into
// it, and check that the door writer waits holding no door.

let admin: pg.Client;
let holder: pg.Client;
let fake: ReturnType<typeof fakeLockProvider>;
beforeAll(async () => {
  admin = await adminClient();
  holder = await adminClient();
});
afterAll(async () => {
  await Promise.all([admin.end(), holder.end()]);
});
beforeEach(() => {
  fake = fakeLockProvider({ devices: [fakeDevice('door-1')] });
  registerLockProvider('seam', () => fake.provider);
});

async function keyOnALock(): Promise<{ tenantId: string; keyId: string; reservationId: string }> {
  const { tenantId, roomIds, locks } = await tenantOnProvider({ provider: 'seam' });
  await addRoomLock({ tenantId, roomId: roomIds[0]!, lockId: locks[0]!.id, actor: TEST_ACTOR });
  const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]! });
  const { rows } = await admin.query<{ id: string }>(`select id from access_keys where reservation_id = $1`, [
    reservationId,
  ]);
  return { tenantId, keyId: rows[0]!.id, reservationId };
}

/** Runs `doorWriter` while `holder` holds the key's row lock; returns whether the door was free meanwhile. */
function doorFreeWhileKeyHeld(keyId: string, doorWriter: () => Promise<unknown>): Promise<boolean> {
  return freeWhileHeld(
    { sql: `update access_keys set updated_at = now() where id = $1`, id: keyId },
    { sql: `select 1 from key_lock_codes where key_id = $1 for update nowait`, id: keyId },
    doorWriter,
  );
}

/**
 * Runs `writer` while `holder` holds a lock (`hold`), waits until the writer is blocked by it, and
 * returns whether what `probe` locks was free meanwhile: the writer must wait holding nothing.
 */
async function freeWhileHeld(
  hold: { sql: string; id: string },
  probe: { sql: string; id: string },
  writer: () => Promise<unknown>,
): Promise<boolean> {
  await holder.query('begin');
  await holder.query(hold.sql, [hold.id]);
  const holderPid = (await holder.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
  const writing = writer();
  let blocked = false;
  for (let i = 0; i < 200 && !blocked; i++) {
    const { rows } = await admin.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity where $1 = any(pg_blocking_pids(pid))`,
      [holderPid],
    );
    blocked = rows[0]!.n > 0;
    if (!blocked) await new Promise((resolve) => setTimeout(resolve, 25));
  }
  expect(blocked, 'the writer must reach the held lock').toBe(true);
  let free = true;
  try {
    await holder.query('savepoint probe');
    await holder.query(probe.sql, [probe.id]);
  } catch (error) {
    expect((error as { code?: string }).code).toBe('55P03');
    free = false;
    await holder.query('rollback to savepoint probe');
  }
  await holder.query('rollback');
  await writing;
  return free;
}

async function doorOf(keyId: string) {
  const { rows } = await admin.query(
    `select c.state::text, k.vendor_sync::text from key_lock_codes c join access_keys k on k.id = c.key_id where c.key_id = $1`,
    [keyId],
  );
  return rows[0] as { state: string; vendor_sync: string };
}

describe('a door writer racing a change of its key', () => {
  it('the worker setting a code waits for the key before it takes the door', async () => {
    const { tenantId, keyId } = await keyOnALock();
    const free = await doorFreeWhileKeyHeld(keyId, () =>
      programKeyOnLock({ tenantId, keyId, attempt: 1, maxAttempts: 8 }),
    );
    expect(free).toBe(true);
    expect(await doorOf(keyId)).toEqual({ state: 'set', vendor_sync: 'synced' });
  });

  it('a provider confirming a code waits for the key before it takes the door', async () => {
    fake.state.acceptAs = 'setting';
    const { tenantId, keyId } = await keyOnALock();
    await programKeyOnLock({ tenantId, keyId, attempt: 1, maxAttempts: 8 }).catch(() => undefined);
    const { rows } = await admin.query<{ code_id: string }>(`select code_id from key_lock_codes where key_id = $1`, [
      keyId,
    ]);
    const event = {
      kind: 'code_set' as const,
      deviceId: 'door-1',
      codeId: rows[0]!.code_id,
      error: null,
      occurredAt: new Date(),
    };
    let outcome: unknown;
    const free = await doorFreeWhileKeyHeld(keyId, async () => {
      outcome = await applyLockEvent({ tenantId, provider: 'seam', event });
    });
    expect(free).toBe(true);
    expect(outcome).toEqual({ status: 'processed' });
    expect(await doorOf(keyId)).toEqual({ state: 'set', vendor_sync: 'synced' });
  });

  it('the worker waits for a stay a check-in holds before it takes the stay’s key', async () => {
    // A check-in (or a cancellation, a check-out) locks the stay `for update`, then its keys.
    const { tenantId, keyId, reservationId } = await keyOnALock();
    const free = await freeWhileHeld(
      { sql: `select 1 from reservations where id = $1 for update`, id: reservationId },
      { sql: `select 1 from access_keys where id = $1 for update nowait`, id: keyId },
      () => programKeyOnLock({ tenantId, keyId, attempt: 1, maxAttempts: 8 }),
    );
    expect(free).toBe(true);
    expect(await doorOf(keyId)).toEqual({ state: 'set', vendor_sync: 'synced' });
  });
});
