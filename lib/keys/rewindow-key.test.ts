import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setVendorForTests } from '../locks/get-vendor';
import { changeReservationDates } from '../stays/change-dates';
import { completeCheckIn } from '../stays/complete-check-in';
import { adminClient, bookRoom, createBookableTenant, TEST_ACTOR } from '../testing/fixtures';
import { startLockSimulator, type LockSimulator } from '../testing/lock-simulator';
import { runWorker } from '../worker/run-worker';

// A stay's new dates reach the lock: the job vendor_rewindow_key takes the code with the old window
// off every door and the program job sets it again with the new one (the simulator speaks TTLock).
let sim: LockSimulator;
let worker: Awaited<ReturnType<typeof runWorker>>;
let admin: pg.Client;

beforeAll(async () => {
  sim = await startLockSimulator();
  setVendorForTests(sim.provider({ timeoutMs: 400 }));
  admin = await adminClient();
  worker = await runWorker({ queueUrl: process.env.TEST_ADMIN_URL!, concurrency: 2 });
});
afterAll(async () => {
  await worker.stop();
  setVendorForTests(null);
  await admin.end();
  await sim.close();
});

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 40_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`still ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const doorOf = async (keyId: string) =>
  (
    await admin.query(
      `select c.state, c.rewindow, c.code_id, k.vendor_sync from key_lock_codes c join access_keys k on k.id = c.key_id where c.key_id = $1`,
      [keyId],
    )
  ).rows[0] as { state: string; rewindow: boolean; code_id: string | null; vendor_sync: string };

describe('a window change on the lock', () => {
  it('the code on the door is removed and set again with the stay’s new end', async () => {
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 1 });
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]! });
    const { key } = await completeCheckIn({ tenantId, reservationId, actor: TEST_ACTOR });
    const first = await until(
      () => doorOf(key.id),
      (d) => d.state === 'set',
    );
    const endsAt = new Date(Date.parse(key.expiresAt) + 24 * 3_600_000);
    await changeReservationDates({ tenantId, reservationId, endsAt, actor: TEST_ACTOR });
    expect((await doorOf(key.id)).rewindow).toBe(true);
    const after = await until(
      () => doorOf(key.id),
      (d) => !d.rewindow && d.state === 'set' && d.code_id !== first.code_id,
    );
    expect(after.vendor_sync).toBe('synced');
    const calls = (await sim.calls()).filter((c) => c.clientRef === key.id && c.outcome === 'ok');
    expect(calls.map((c) => c.endpoint).filter((e) => /keyboardPwd\/(add|delete)$/.test(e))).toEqual([
      '/v3/keyboardPwd/add',
      '/v3/keyboardPwd/delete',
      '/v3/keyboardPwd/add',
    ]);
    const onLock = Object.values(await sim.codes())
      .flat()
      .filter((c) => c.clientRef === key.id);
    expect(onLock).toHaveLength(1);
    expect(onLock[0]!.endDate).toBe(endsAt.getTime());
  }, 60_000);
});
