import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBookingGroup } from '../bookings/create-booking-group';
import { adminClient, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { correctGuestOfReservation } from './correct-guest';
import { deleteGuestOfReservation } from './delete-guest';

// Issue 28, item 12: the desk can correct a guest's name, email and phone — audited without the
// values (personal data never goes into the audit trail), and mail not yet sent goes to the
// corrected address.

let admin: pg.Client;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});

async function booked(email: string | null = 'wrong@example.test') {
  const t = await createBookableTenant();
  const startsAt = new Date(Date.now() + 3_600_000);
  const group = await createBookingGroup({
    tenantId: t.tenantId,
    actor: TEST_ACTOR,
    guest: { name: 'Kenji Sato', email, phone: null },
    source: 'desk',
    reservations: [{ roomId: t.roomIds[0]!, startsAt, endsAt: new Date(startsAt.getTime() + 86_400_000) }],
  });
  return { ...t, reservationId: group.reservations[0]!.id, guestId: group.guestId };
}

describe('correcting a guest’s details', () => {
  it('changes name, email and phone, audits which fields changed (never the values), and readdresses unsent mail', async () => {
    const s = await booked();
    const result = await correctGuestOfReservation({
      tenantId: s.tenantId,
      reservationId: s.reservationId,
      name: 'Kenji Satō',
      email: 'kenji@example.test',
      phone: '+81 90 1234 5678',
      actor: TEST_ACTOR,
    });
    expect(result).toEqual({ changed: ['name', 'email', 'phone'] });
    const { rows } = await admin.query(`select name, email, phone from guests where id = $1`, [s.guestId]);
    expect(rows[0]).toEqual({ name: 'Kenji Satō', email: 'kenji@example.test', phone: '+81 90 1234 5678' });
    const { rows: audit } = await admin.query(
      `select metadata from audit_events where subject_id = $1 and action = 'guest.updated'`,
      [s.reservationId],
    );
    expect(audit).toHaveLength(1);
    expect(audit[0].metadata).toEqual({ guestId: s.guestId, changed: ['name', 'email', 'phone'] });
    expect(JSON.stringify(audit[0])).not.toContain('kenji@example.test');
    const { rows: messages } = await admin.query(`select to_address, status from messages where reservation_id = $1`, [
      s.reservationId,
    ]);
    expect(messages).toEqual([{ to_address: 'kenji@example.test', status: 'queued' }]);
  });

  it('the same details again change nothing and write no audit row', async () => {
    const s = await booked();
    const same = { name: 'Kenji Sato', email: 'wrong@example.test', phone: null };
    expect(
      await correctGuestOfReservation({
        tenantId: s.tenantId,
        reservationId: s.reservationId,
        ...same,
        actor: TEST_ACTOR,
      }),
    ).toEqual({ changed: [] });
    const { rows } = await admin.query(
      `select 1 from audit_events where subject_id = $1 and action = 'guest.updated'`,
      [s.guestId],
    );
    expect(rows).toHaveLength(0);
  });

  it('refuses a bad email, another tenant’s reservation and a deleted guest, writing nothing', async () => {
    const s = await booked();
    const other = await booked();
    const input = { name: 'X', email: null, phone: null, actor: TEST_ACTOR };
    await expect(
      correctGuestOfReservation({ ...input, tenantId: s.tenantId, reservationId: s.reservationId, email: 'a@b, c@d' }),
    ).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(
      correctGuestOfReservation({ ...input, tenantId: s.tenantId, reservationId: other.reservationId }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await deleteGuestOfReservation({
      tenantId: s.tenantId,
      reservationId: s.reservationId,
      confirmName: 'Kenji Sato',
      actor: TEST_ACTOR,
    });
    await expect(
      correctGuestOfReservation({ ...input, tenantId: s.tenantId, reservationId: s.reservationId }),
    ).rejects.toMatchObject({ code: 'not_found' });
    const { rows } = await admin.query(`select name from guests where id = $1`, [other.guestId]);
    expect(rows[0].name).toBe('Kenji Sato');
  });

  it('a guest booked without an email is sent their link once the desk adds one', async () => {
    const s = await booked(null);
    const { rows: none } = await admin.query(`select 1 from messages where reservation_id = $1`, [s.reservationId]);
    expect(none).toHaveLength(0);
    const details = { name: 'Kenji Sato', email: 'found@example.test', phone: null };
    await correctGuestOfReservation({
      tenantId: s.tenantId,
      reservationId: s.reservationId,
      ...details,
      actor: TEST_ACTOR,
    });
    await correctGuestOfReservation({
      tenantId: s.tenantId,
      reservationId: s.reservationId,
      ...details,
      email: 'found.again@example.test',
      actor: TEST_ACTOR,
    });
    const { rows } = await admin.query(`select kind::text, to_address from messages where reservation_id = $1`, [
      s.reservationId,
    ]);
    expect(rows).toEqual([{ kind: 'key_link', to_address: 'found.again@example.test' }]);
  });
});
