import { describe, expect, it } from 'vitest';
import { reservationDetail } from '../desk/reservation-detail';
import { getGuestStatus } from '../guests/get-guest-key';
import { changeReservationDates } from '../stays/change-dates';
import { completeCheckIn } from '../stays/complete-check-in';
import { bookRoom, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { withSimulatorProvider } from '../../tooling/testing/lock-simulator';
import { programKeyOnLock, RetryableProviderError, rewindowKeyOnLock } from '../locks/sync-provider';

// A stay's new dates reach the lock (issue 28, item 11 b): the job vendor_rewindow_key changes the
// code's window in place (TTLock /v3/keyboardPwd/change; the simulator speaks TTLock), so the guest's
// PIN never leaves the door; a re-window the lock cannot take is said on the desk and the guest page,
// and counted on an incident. The jobs are run here one attempt at a time (no worker: no timing).
const env = withSimulatorProvider();

const doorOf = async (keyId: string) =>
  (
    await env.admin.query(
      `select c.state::text, c.rewindow, c.rewindow_error, c.code_id, k.vendor_sync::text, l.device_id
         from key_lock_codes c join access_keys k on k.id = c.key_id join locks l on l.id = c.lock_id where c.key_id = $1`,
      [keyId],
    )
  ).rows[0] as {
    state: string;
    rewindow: boolean;
    rewindow_error: string | null;
    code_id: string | null;
    vendor_sync: string;
    device_id: string;
  };

/** A checked-in stay whose key is on its one door (the simulator confirmed it). */
async function stayInTheRoom() {
  const { tenantId, roomIds } = await createBookableTenant({ rooms: 1 });
  const { reservationId, token } = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: 0.5 });
  const { key } = await completeCheckIn({ tenantId, reservationId, actor: TEST_ACTOR, early: true });
  await programKeyOnLock({ tenantId, keyId: key.id, attempt: 1, maxAttempts: 8 });
  const door = await doorOf(key.id);
  expect(door).toMatchObject({ state: 'set', vendor_sync: 'synced' });
  return { tenantId, reservationId, token, keyId: key.id, expiresAt: new Date(key.expiresAt), door };
}

const job = (tenantId: string, keyId: string, attempt: number) => ({ tenantId, keyId, attempt, maxAttempts: 8 });

describe('a window change on the lock', () => {
  it('changes the code in place: the same code and PIN stay on the door, with the stay’s new end', async () => {
    const { tenantId, reservationId, token, keyId, expiresAt, door } = await stayInTheRoom();
    const endsAt = new Date(expiresAt.getTime() + 24 * 3_600_000);
    await changeReservationDates({ tenantId, reservationId, endsAt, actor: TEST_ACTOR });
    expect(await doorOf(keyId)).toMatchObject({ state: 'set', rewindow: true });
    expect((await getGuestStatus(token))?.lockWindow).toBe('updating');

    await rewindowKeyOnLock(job(tenantId, keyId, 1));
    expect(await doorOf(keyId)).toMatchObject({
      state: 'set',
      rewindow: false,
      rewindow_error: null,
      code_id: door.code_id,
      vendor_sync: 'synced',
    });
    const calls = (await env.sim.calls()).filter((c) => c.clientRef === keyId && c.outcome === 'ok');
    expect(calls.map((c) => c.endpoint).filter((e) => e.startsWith('/v3/keyboardPwd/'))).toEqual([
      '/v3/keyboardPwd/add',
      '/v3/keyboardPwd/change',
    ]);
    const onLock = (await env.sim.codes())[door.device_id]!.filter((c) => c.clientRef === keyId);
    expect(onLock).toHaveLength(1);
    expect(onLock[0]).toMatchObject({ keyboardPwdId: door.code_id, endDate: endsAt.getTime() });
    expect((await getGuestStatus(token))?.lockWindow).toBeNull();
  });

  it('that the lock cannot take keeps the code and its old window, opens an incident, and says so to desk and guest', async () => {
    const { tenantId, reservationId, token, keyId, expiresAt, door } = await stayInTheRoom();
    await env.sim.control('/_control/faults', { locks: { [door.device_id]: { offline: 'gateway' } } });
    const endsAt = new Date(expiresAt.getTime() - 6 * 3_600_000);
    await changeReservationDates({ tenantId, reservationId, endsAt, actor: TEST_ACTOR });
    await expect(rewindowKeyOnLock(job(tenantId, keyId, 1))).rejects.toBeInstanceOf(RetryableProviderError);
    expect(await doorOf(keyId)).toMatchObject({ state: 'set', rewindow: true });
    // The queue's last attempt: the door keeps its code (never taken off while the guest is in).
    await rewindowKeyOnLock(job(tenantId, keyId, 8));
    expect(await doorOf(keyId)).toMatchObject({
      state: 'set',
      rewindow: false,
      rewindow_error: 'gateway_offline',
      code_id: door.code_id,
    });
    const onLock = (await env.sim.codes())[door.device_id]!.filter((c) => c.clientRef === keyId);
    expect(onLock.map((c) => c.endDate)).toEqual([expiresAt.getTime()]);
    expect((await env.sim.calls()).filter((c) => c.endpoint === '/v3/keyboardPwd/delete')).toEqual([]);

    const { rows: incidents } = await env.admin.query(
      `select kind, severity, detail from incidents where tenant_id = $1 and resolved_at is null`,
      [tenantId],
    );
    expect(incidents).toMatchObject([
      { kind: 'lock_rewindow_failed', severity: 'critical', detail: { keyIds: [keyId], lastCode: 'gateway_offline' } },
    ]);
    expect((await getGuestStatus(token))?.lockWindow).toBe('failed');
    const detail = await reservationDetail({ tenantId, reservationId });
    expect(detail!.accessKeys.find((k) => k.id === keyId)!.doors).toMatchObject([
      { rewindow: false, rewindowError: 'gateway_offline' },
    ]);

    // A later attempt that reaches the lock ends it: the incident resolves, the notices go.
    await env.sim.control('/_control/faults', {});
    await env.admin.query(`update key_lock_codes set rewindow = true where key_id = $1`, [keyId]);
    await rewindowKeyOnLock(job(tenantId, keyId, 1));
    expect(await doorOf(keyId)).toMatchObject({ state: 'set', rewindow: false, rewindow_error: null });
    expect((await env.sim.codes())[door.device_id]!.find((c) => c.clientRef === keyId)!.endDate).toBe(endsAt.getTime());
    const { rows: open } = await env.admin.query(
      `select kind from incidents where tenant_id = $1 and resolved_at is null`,
      [tenantId],
    );
    expect(open).toEqual([]);
    expect((await getGuestStatus(token))?.lockWindow).toBeNull();
  });
});
