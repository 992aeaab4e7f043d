import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeCheckIn } from '../stays/complete-check-in';
import { adminClient, bookRoom, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { getGuestKey } from './get-guest-key';
import { rotateGuestLink } from './rotate-guest-link';

// Issue 28, item 8: replacing a guest link "for a lost or forwarded link" must also take away the
// PIN that link showed: the stay's live key is re-issued with a new PIN (`key.reissued`, reason
// `link_replaced`) in the same transaction, and only the new link shows it.

let admin: pg.Client;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});

async function liveKeys(reservationId: string) {
  const { rows } = await admin.query(
    `select id, status::text, pin, replaces from access_keys
      where reservation_id = $1 and kind = 'guest' and status in ('pre_issued', 'active')`,
    [reservationId],
  );
  return rows;
}

const tokenOf = (url: string) => url.split('/k/')[1]!;

describe('replacing a guest link', () => {
  it('re-issues the live key with a new PIN that only the new link shows; the old PIN no longer works', async () => {
    const t = await createBookableTenant();
    const { reservationId, token } = await bookRoom({ tenantId: t.tenantId, roomId: t.roomIds[0]! });
    const { key: old } = await completeCheckIn({ tenantId: t.tenantId, reservationId, actor: TEST_ACTOR });
    expect(await getGuestKey(token)).toMatchObject({ id: old.id, pin: old.pin });

    const { guestUrl } = await rotateGuestLink({ tenantId: t.tenantId, reservationId, actor: TEST_ACTOR });

    const live = await liveKeys(reservationId);
    expect(live).toHaveLength(1);
    expect(live[0]).toMatchObject({ status: 'active', replaces: old.id });
    expect(live[0].pin).not.toBe(old.pin);
    const { rows: ended } = await admin.query(`select status::text, revoked_reason from access_keys where id = $1`, [
      old.id,
    ]);
    expect(ended[0]).toEqual({ status: 'revoked', revoked_reason: 'link_replaced' });
    const { rows: audit } = await admin.query(
      `select reason from audit_events where subject_id = $1 and action = 'key.reissued'`,
      [live[0].id],
    );
    expect(audit).toEqual([{ reason: 'link_replaced' }]);

    expect(await getGuestKey(tokenOf(guestUrl))).toMatchObject({ id: live[0].id, pin: live[0].pin });
    await expect(getGuestKey(token)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('re-issues a pre-issued key before check-in too', async () => {
    const t = await createBookableTenant();
    const { reservationId } = await bookRoom({ tenantId: t.tenantId, roomId: t.roomIds[0]! });
    const [before] = await liveKeys(reservationId);
    await rotateGuestLink({ tenantId: t.tenantId, reservationId, actor: TEST_ACTOR });
    const after = await liveKeys(reservationId);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ status: 'pre_issued', replaces: before.id });
    expect(after[0].pin).not.toBe(before.pin);
  });
});
