import { describe, expect, it } from 'vitest';
import { adminClient, bookRoom, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { revokeKey } from '../keys/revoke-key';
import { completeCheckIn } from './complete-check-in';

describe('the check-in hand-off', () => {
  it('revokes the pre-issued key with its audit row, issues the stay key, and repeats to the same answer', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]! });
    const admin = await adminClient();
    const before = await admin.query(`select id, status from access_keys where reservation_id = $1`, [reservationId]);
    expect(before.rows).toEqual([{ id: expect.any(String), status: 'pre_issued' }]);
    const preIssuedId = before.rows[0].id;

    const first = await completeCheckIn({
      tenantId,
      reservationId,
      actor: { type: 'user', id: null, label: 'Desk Aiko' },
    });
    expect(first.revokedKeyIds).toEqual([preIssuedId]);
    expect(first.key).toMatchObject({ status: 'active', vendorSync: 'pending', revokedReason: null });
    expect(first.key.pin).toMatch(/^\d{6}$/);

    const keys = await admin.query(
      `select id, status, revoked_reason, check_in_id from access_keys where reservation_id = $1 order by created_at`,
      [reservationId],
    );
    expect(keys.rows).toEqual([
      { id: preIssuedId, status: 'revoked', revoked_reason: 'superseded_by_checkin', check_in_id: null },
      { id: first.key.id, status: 'active', revoked_reason: null, check_in_id: first.checkInId },
    ]);
    const audit = await admin.query(
      `select actor_type, actor_label, action, subject_type, subject_id, reason from audit_events where tenant_id = $1 and action in ('key.revoked', 'checkin.completed', 'key.issued') order by occurred_at`,
      [tenantId],
    );
    expect(audit.rows).toEqual([
      {
        actor_type: 'user',
        actor_label: 'Desk Aiko',
        action: 'key.revoked',
        subject_type: 'access_key',
        subject_id: preIssuedId,
        reason: 'superseded_by_checkin',
      },
      {
        actor_type: 'user',
        actor_label: 'Desk Aiko',
        action: 'checkin.completed',
        subject_type: 'reservation',
        subject_id: reservationId,
        reason: null,
      },
      {
        actor_type: 'user',
        actor_label: 'Desk Aiko',
        action: 'key.issued',
        subject_type: 'access_key',
        subject_id: first.key.id,
        reason: null,
      },
    ]);

    const again = await completeCheckIn({ tenantId, reservationId, actor: TEST_ACTOR });
    expect(again).toEqual(first);
    const counts = await admin.query(
      `select (select count(*)::int from check_ins where reservation_id = $1) as check_ins,
      (select count(*)::int from access_keys where reservation_id = $1) as keys`,
      [reservationId],
    );
    expect(counts.rows[0]).toEqual({ check_ins: 1, keys: 2 });
    await admin.end();
  });

  it('gives every one of concurrent check-ins of a stay the same check-in, key and revocations, written once', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]! });
    // Each call is its own transaction on its own connection: they really race for the stay's row lock.
    const results = await Promise.all(
      Array.from({ length: 6 }, () => completeCheckIn({ tenantId, reservationId, actor: TEST_ACTOR })),
    );
    for (const result of results) expect(result).toEqual(results[0]);
    const admin = await adminClient();
    const { rows } = await admin.query(
      `select (select count(*)::int from check_ins where reservation_id = $1) as check_ins,
              (select count(*)::int from access_keys where reservation_id = $1 and status = 'active') as live,
              (select count(*)::int from access_keys where reservation_id = $1 and status = 'revoked') as revoked,
              (select count(*)::int from audit_events where tenant_id = $2 and action = 'checkin.completed') as audited`,
      [reservationId, tenantId],
    );
    expect(rows[0]).toEqual({ check_ins: 1, live: 1, revoked: 1, audited: 1 });
    await admin.end();
  });

  it('refuses a cancelled reservation and another tenant’s reservation', async () => {
    const a = await createBookableTenant();
    const b = await createBookableTenant();
    const { reservationId } = await bookRoom({ tenantId: b.tenantId, roomId: b.roomIds[0]! });
    await expect(completeCheckIn({ tenantId: a.tenantId, reservationId, actor: TEST_ACTOR })).rejects.toMatchObject({
      code: 'not_found',
    });
    const admin = await adminClient();
    await admin.query(`update reservations set status = 'cancelled' where id = $1`, [reservationId]);
    await admin.end();
    await expect(completeCheckIn({ tenantId: b.tenantId, reservationId, actor: TEST_ACTOR })).rejects.toMatchObject({
      code: 'reservation_not_ready',
    });
  });

  it('answers a second revocation with illegal_transition (from revoked to revoked)', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]! });
    const { key } = await completeCheckIn({ tenantId, reservationId, actor: TEST_ACTOR });
    const revoked = await revokeKey({ tenantId, keyId: key.id, reason: 'lost phone', actor: TEST_ACTOR });
    expect(revoked).toMatchObject({ status: 'revoked', revokedReason: 'lost phone', vendorSync: 'pending' });
    await expect(revokeKey({ tenantId, keyId: key.id, reason: 'again', actor: TEST_ACTOR })).rejects.toMatchObject({
      code: 'illegal_transition',
      details: { from: 'revoked', to: 'revoked' },
    });
  });
});
