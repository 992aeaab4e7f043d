import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { System } from './harness';

const system = new System('web-kill');

beforeAll(async () => {
  await system.start({ webs: 2, workers: 1 });
});
afterAll(async () => {
  await system.stop();
});

describe('chaos: a web process is SIGKILLed mid-request', () => {
  it('leaves every check-in whole or not at all; repeating them on the other process gives one check-in and one key each', async () => {
    process.env.TEST_ADMIN_URL = system.adminUrl;
    const { adminClient, bookRoom, createBookableTenant, TEST_ACTOR } = await import('../../tooling/testing/fixtures');
    const { createApiKey } = await import('../../lib/auth/api-keys');
    const admin = await adminClient();
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 30 });
    const { key } = await createApiKey({ tenantId, name: 'chaos', actor: TEST_ACTOR });
    const reservations: string[] = [];
    for (const roomId of roomIds)
      reservations.push((await bookRoom({ tenantId, roomId, startsInHours: -1 })).reservationId);
    const checkIn = (web: number, id: string) =>
      fetch(`${system.webUrl(web)}/api/v1/reservations/${id}/check-in`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
        signal: AbortSignal.timeout(20_000),
      })
        .then(async (r) => ({
          status: r.status,
          body: (await r.json()) as { data?: { checkInId: string; key: { id: string } } },
        }))
        .catch(() => ({ status: 0, body: {} as { data?: { checkInId: string; key: { id: string } } } }));

    const inFlight = Promise.all(reservations.map((id) => checkIn(0, id)));
    await new Promise((resolve) => setTimeout(resolve, 150));
    await system.kill(system.webs[0]!.child);
    const first = await inFlight;
    expect(first.some((r) => r.status === 0)).toBe(true);
    await system.startWeb(0);

    const second = await Promise.all(reservations.map((id) => checkIn(1, id)));
    expect(second.map((r) => r.status)).toEqual(reservations.map(() => 200));
    const third = await Promise.all(reservations.map((id) => checkIn(0, id)));
    expect(third.map((r) => r.body.data?.key.id)).toEqual(second.map((r) => r.body.data?.key.id));
    for (const [i, r] of first.entries())
      if (r.status === 200) expect(r.body.data?.checkInId).toBe(second[i]!.body.data?.checkInId);

    const { rows } = await admin.query(
      `select r.id, (select count(*)::int from check_ins c where c.reservation_id = r.id) as check_ins,
              (select count(*)::int from access_keys k where k.reservation_id = r.id and k.status = 'active') as active,
              (select count(*)::int from access_keys k where k.reservation_id = r.id and k.status = 'pre_issued') as pre
       from reservations r where r.tenant_id = $1`,
      [tenantId],
    );
    expect(rows).toHaveLength(30);
    for (const row of rows) expect(row).toMatchObject({ check_ins: 1, active: 1, pre: 0 });
    await admin.end();
  });
});
