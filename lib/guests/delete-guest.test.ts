import { describe, expect, it } from 'vitest';
import { createApiKey } from '../auth/api-keys';
import { completeCheckIn } from '../stays/complete-check-in';
import { adminClient, bookRoom, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { routeHandler } from '../api/router';

const deleteGuestRoute = routeHandler('DELETE', '/api/v1/guests/{id}');
const getReservationRoute = routeHandler('GET', '/api/v1/reservations/{id}');

describe('deleting a guest', () => {
  it('removes the personal data, keeps every reservation and audit row, revokes live keys first, and shows "Deleted account"', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    const { key: apiKey } = await createApiKey({ tenantId, name: 'gdpr', actor: TEST_ACTOR });
    const current = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: -2, guestName: 'Hana Mori' });
    const { key: stayKey } = await completeCheckIn({
      tenantId,
      reservationId: current.reservationId,
      actor: TEST_ACTOR,
    });
    const admin = await adminClient();
    const auditBefore = (await admin.query(`select id from audit_events where tenant_id = $1 order by id`, [tenantId]))
      .rows;

    const response = await deleteGuestRoute(
      new Request(`http://test/api/v1/guests/${current.guestId}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${apiKey}` },
      }),
      { params: Promise.resolve({ id: current.guestId }) },
    );
    expect(response.status).toBe(204);

    expect(
      (await admin.query(`select count(*)::int as n from guests where id = $1`, [current.guestId])).rows[0].n,
    ).toBe(0);
    const reservation = (
      await admin.query(`select guest_id, guest_ref_snapshot, room_label_snapshot from reservations where id = $1`, [
        current.reservationId,
      ])
    ).rows[0];
    expect(reservation).toEqual({
      guest_id: null,
      guest_ref_snapshot: expect.stringMatching(/^guest_/),
      room_label_snapshot: '101',
    });
    const key = (await admin.query(`select status, revoked_reason from access_keys where id = $1`, [stayKey.id]))
      .rows[0];
    expect(key).toEqual({ status: 'revoked', revoked_reason: 'guest_deleted' });
    const auditAfter = (await admin.query(`select id, action from audit_events where tenant_id = $1`, [tenantId])).rows;
    for (const row of auditBefore) expect(auditAfter.map((r) => r.id)).toContain(row.id);
    expect(auditAfter.map((r) => r.action)).toContain('guest.deleted');
    expect(JSON.stringify(auditAfter)).not.toContain('Hana Mori');
    await admin.end();

    const view = await getReservationRoute(
      new Request(`http://test/api/v1/reservations/${current.reservationId}`, {
        headers: { authorization: `Bearer ${apiKey}` },
      }),
      { params: Promise.resolve({ id: current.reservationId }) },
    );
    expect((await view.json()).data).toMatchObject({ guest: null, guestDisplay: 'Deleted account' });

    const again = await deleteGuestRoute(
      new Request(`http://test/api/v1/guests/${current.guestId}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${apiKey}` },
      }),
      { params: Promise.resolve({ id: current.guestId }) },
    );
    expect(again.status).toBe(404);
  });

  it('from the desk: only when the guest’s name is typed, resolved from the reservation in the tenant', async () => {
    const { deleteGuestOfReservation } = await import('./delete-guest');
    const { tenantId, roomIds } = await createBookableTenant();
    const other = await createBookableTenant();
    const { reservationId, guestId } = await bookRoom({ tenantId, roomId: roomIds[0]!, guestName: 'Sora  Kimura' });
    await expect(
      deleteGuestOfReservation({
        tenantId: other.tenantId,
        reservationId,
        confirmName: 'Sora Kimura',
        actor: TEST_ACTOR,
      }),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect(
      await deleteGuestOfReservation({ tenantId, reservationId, confirmName: 'Someone Else', actor: TEST_ACTOR }),
    ).toBe('name_mismatch');
    const admin = await adminClient();
    expect((await admin.query(`select count(*)::int as n from guests where id = $1`, [guestId])).rows[0].n).toBe(1);
    expect(
      await deleteGuestOfReservation({ tenantId, reservationId, confirmName: ' sora kimura ', actor: TEST_ACTOR }),
    ).toBe('deleted');
    expect((await admin.query(`select count(*)::int as n from guests where id = $1`, [guestId])).rows[0].n).toBe(0);
    await admin.end();
    await expect(
      deleteGuestOfReservation({ tenantId, reservationId, confirmName: 'Sora Kimura', actor: TEST_ACTOR }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });
});
