import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeDevice, fakeLockProvider, tenantOnProvider } from '../../tooling/testing/fake-lock-provider';
import { adminClient, asRole, bookRoom, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { runStatements } from '../db/tx';
import { deskGuestMessagesStatement, markGuestMessageRead } from '../desk/guest-messages';
import { addRoomLock } from '../locks/locks';
import { programKeyOnLock } from '../locks/sync-provider';
import { registerLockProvider } from '../locks/tenant-provider';
import { checkOutReservation } from '../stays/check-out';
import { completeCheckIn } from '../stays/complete-check-in';
import { deleteGuest } from './delete-guest';
import { getGuestPage } from './get-guest-page';
import { checkInAsGuest } from './guest-check-in';
import { postGuestMessage, reportCodeProblem, ZGuestMessageBodySchema } from './guest-help';

let admin: pg.Client;
let fake: ReturnType<typeof fakeLockProvider>;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});
beforeEach(() => {
  fake = fakeLockProvider({ devices: [fakeDevice('pooled', { supportsBackupCodes: true }), fakeDevice('plain')] });
  registerLockProvider('seam', () => fake.provider);
});

// Every test its own address, so the per-address limit of one test never refuses another's.
let addressCount = 0;
const nextAddress = () => `198.51.100.${++addressCount}`;

/** A stay in house (checked in, its key on the door) at a room whose one lock is `deviceId`. */
async function stayOn(deviceId: 'pooled' | 'plain') {
  const { tenantId, roomIds, locks } = await tenantOnProvider({ provider: 'seam' });
  const lockId = locks.find((l) => l.deviceId === deviceId)!.id;
  await addRoomLock({ tenantId, roomId: roomIds[0]!, lockId, actor: TEST_ACTOR });
  const { reservationId, token, guestId } = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: -1 });
  const { key } = await completeCheckIn({ tenantId, reservationId, actor: TEST_ACTOR });
  await programKeyOnLock({ tenantId, keyId: key.id, attempt: 1, maxAttempts: 8 });
  return { tenantId, reservationId, token, guestId, key };
}

const deskAs = (tenantId: string, reservationIds: string[]) =>
  runStatements({ role: 'app_authenticated', tenantId }, [deskGuestMessagesStatement({ tenantId, reservationIds })]);

describe('a guest writes to the desk', () => {
  it('reaches the property by its email too: on the live page and the thank-you page; a malformed one is refused', async () => {
    const { tenantId, facilityId, roomIds } = await createBookableTenant({ rooms: 1 });
    await admin.query(`update facilities set email = 'desk@example.com' where id = $1`, [facilityId]);
    await expect(
      admin.query(`update facilities set email = 'not an address' where id = $1`, [facilityId]),
    ).rejects.toMatchObject({ code: '23514' });
    const { reservationId, token } = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: -1 });
    expect(await getGuestPage(token, nextAddress())).toMatchObject({
      kind: 'live',
      stay: { facility: { email: 'desk@example.com' } },
    });
    await completeCheckIn({ tenantId, reservationId, actor: TEST_ACTOR });
    await checkOutReservation({ tenantId, reservationId, actor: TEST_ACTOR });
    expect(await getGuestPage(token, nextAddress())).toMatchObject({ kind: 'thanks', email: 'desk@example.com' });
  });

  it('lands on the reservation timeline and the desk’s day; another tenant sees nothing of it', async () => {
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 1 });
    const other = await createBookableTenant({ rooms: 1 });
    const { reservationId, token } = await bookRoom({ tenantId, roomId: roomIds[0]! });
    const address = nextAddress();

    const sent = await postGuestMessage({ token, clientAddress: address, body: '  Where do I park?  ' });
    const later = await postGuestMessage({ token, clientAddress: address, body: 'Found it, thanks.' });

    const [messages] = await deskAs(tenantId, [reservationId]);
    expect(messages.map((m) => [m.id, m.body, m.kind, m.priority, m.readAt])).toEqual([
      [later.id, 'Found it, thanks.', 'message', 'normal', null],
      [sent.id, 'Where do I park?', 'message', 'normal', null],
    ]);
    const audit = await admin.query(
      `select actor_type::text, metadata->>'guestMessageId' as message_id, metadata::text as metadata
         from audit_events where subject_id = $1 and action = 'guest.message_sent' order by occurred_at`,
      [reservationId],
    );
    expect(audit.rows.map((r) => [r.actor_type, r.message_id])).toEqual([
      ['guest', sent.id],
      ['guest', later.id],
    ]);
    // The audit row (append-only, kept after the guest is deleted) never holds the words.
    expect(audit.rows.some((r) => String(r.metadata).includes('park'))).toBe(false);

    // Row-level security: tenant B's staff read none of it, even naming A's reservation.
    expect((await deskAs(other.tenantId, [reservationId]))[0]).toEqual([]);
    expect(
      await asRole('app_authenticated', other.tenantId, 'select id from guest_messages where id = $1', [sent.id]),
    ).toEqual({ rows: [] });
    expect(await asRole('app_anon', null, 'select id from guest_messages')).toEqual({ code: '42501' });
    await expect(
      markGuestMessageRead({ tenantId: other.tenantId, messageId: sent.id, actor: TEST_ACTOR }),
    ).rejects.toMatchObject({
      code: 'not_found',
    });

    // The desk reads it: it leaves the unread count; a second read changes nothing.
    const read = await markGuestMessageRead({ tenantId, messageId: sent.id, actor: TEST_ACTOR });
    expect(await markGuestMessageRead({ tenantId, messageId: sent.id, actor: TEST_ACTOR })).toEqual(read);
    const [after] = await deskAs(tenantId, [reservationId]);
    expect(after.filter((m) => m.readAt === null).map((m) => m.id)).toEqual([later.id]);
  });

  it('refuses an empty or too long message (400 before anything is written), and in PostgreSQL too', async () => {
    expect(ZGuestMessageBodySchema.safeParse({ body: '   ' }).success).toBe(false);
    expect(ZGuestMessageBodySchema.safeParse({ body: 'x'.repeat(2001) }).success).toBe(false);
    expect(ZGuestMessageBodySchema.safeParse({ body: 'ok', extra: 1 }).success).toBe(false);
    expect(ZGuestMessageBodySchema.safeParse({ body: 'x'.repeat(2000) }).success).toBe(true);
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 1 });
    const { reservationId, guestId } = await bookRoom({ tenantId, roomId: roomIds[0]! });
    await expect(
      admin.query(
        `insert into guest_messages (tenant_id, reservation_id, guest_id, kind, body, priority)
         values ($1, $2, $3, 'message', repeat('x', 2001), 'normal')`,
        [tenantId, reservationId, guestId],
      ),
    ).rejects.toMatchObject({ code: '23514' });
  });

  it('is refused for an ended stay’s link, and deleting the guest deletes what they wrote', async () => {
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 2 });
    const ended = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: -1 });
    await completeCheckIn({ tenantId, reservationId: ended.reservationId, actor: TEST_ACTOR });
    await checkOutReservation({ tenantId, reservationId: ended.reservationId, actor: TEST_ACTOR });
    await expect(
      postGuestMessage({ token: ended.token, clientAddress: nextAddress(), body: 'Hello' }),
    ).rejects.toMatchObject({ code: 'not_found' });

    const live = await bookRoom({ tenantId, roomId: roomIds[1]! });
    await postGuestMessage({ token: live.token, clientAddress: nextAddress(), body: 'My name is in here' });
    await deleteGuest({ tenantId, guestId: live.guestId, actor: TEST_ACTOR });
    const left = await admin.query(`select count(*)::int as n from guest_messages where reservation_id = $1`, [
      live.reservationId,
    ]);
    expect(left.rows).toEqual([{ n: 0 }]);
  });

  it('is rate limited per link and address', async () => {
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 1 });
    const { token } = await bookRoom({ tenantId, roomId: roomIds[0]! });
    const address = nextAddress();
    for (let i = 0; i < 10; i++) await postGuestMessage({ token, clientAddress: address, body: `m${i}` });
    await expect(postGuestMessage({ token, clientAddress: address, body: 'one more' })).rejects.toMatchObject({
      code: 'rate_limited',
    });
  });
});

describe('"my code does not work"', () => {
  it('tapped again and again within minutes is one report: one high-priority message, one incident, one audit', async () => {
    const { tenantId, reservationId, token } = await stayOn('plain');
    const address = nextAddress();
    const replies = await Promise.all([
      reportCodeProblem({ token, clientAddress: address }),
      reportCodeProblem({ token, clientAddress: address }),
    ]);
    replies.push(await reportCodeProblem({ token, clientAddress: address }));
    // The plain lock keeps no pool: the desk is told, no backup code.
    expect(replies).toEqual([0, 1, 2].map(() => ({ reported: true, backup: null })));

    const reports = await admin.query(
      `select kind::text, priority, occurrences, body from guest_messages where reservation_id = $1`,
      [reservationId],
    );
    expect(reports.rows).toEqual([{ kind: 'code_problem', priority: 'high', occurrences: 3, body: null }]);
    const audits = await admin.query(
      `select count(*)::int as n from audit_events where subject_id = $1 and action = 'guest.code_problem'`,
      [reservationId],
    );
    expect(audits.rows).toEqual([{ n: 1 }]);
    const incidents = await admin.query(
      `select kind, severity, occurrences, resolved_at from incidents where tenant_id = $1 and condition_key = $2`,
      [tenantId, `guest_code_problem:${reservationId}`],
    );
    expect(incidents.rows).toEqual([
      { kind: 'guest_code_problem', severity: 'critical', occurrences: 1, resolved_at: null },
    ]);

    // The same minutes can hold only one report, whoever writes it (the unique bucket).
    await expect(
      admin.query(
        `insert into guest_messages (tenant_id, reservation_id, guest_id, kind, priority, report_bucket)
         select tenant_id, reservation_id, guest_id, kind, priority, report_bucket from guest_messages where reservation_id = $1`,
        [reservationId],
      ),
    ).rejects.toMatchObject({ code: '23505' });

    // Five minutes later it is a new report, and the open incident counts it.
    await admin.query(
      `update guest_messages set created_at = created_at - interval '6 minutes',
       report_bucket = report_bucket - interval '10 minutes' where reservation_id = $1`,
      [reservationId],
    );
    await reportCodeProblem({ token, clientAddress: address });
    const again = await admin.query(`select occurrences from incidents where tenant_id = $1 and condition_key = $2`, [
      tenantId,
      `guest_code_problem:${reservationId}`,
    ]);
    expect(again.rows).toEqual([{ occurrences: 2 }]);
  });

  it('answers with a backup code where the lock keeps a pool: the same one on every tap', async () => {
    const { reservationId, token, key } = await stayOn('pooled');
    const address = nextAddress();
    const first = await reportCodeProblem({ token, clientAddress: address });
    expect(first.backup).toMatchObject({ kind: 'backup', status: 'active' });
    expect(first.backup!.pin).toMatch(/^\d{6}$/);
    expect(first.backup!.pin).not.toBe(key.pin);
    const second = await reportCodeProblem({ token, clientAddress: address });
    expect(second.backup?.id).toBe(first.backup!.id);
    expect(fake.calls.filter((c) => c.method === 'pullBackupCode')).toHaveLength(1);

    const stored = await admin.query(
      `select m.backup_key_id, k.backup_for, a.reason from guest_messages m
         join access_keys k on k.id = m.backup_key_id
         join audit_events a on a.subject_id = k.id and a.action = 'key.backup_issued'
        where m.reservation_id = $1`,
      [reservationId],
    );
    expect(stored.rows).toEqual([
      { backup_key_id: first.backup!.id, backup_for: key.id, reason: 'guest_code_problem' },
    ]);
  });

  it('hands no backup PIN to a self check-in guest who has not checked in, even where the lock keeps a pool', async () => {
    const { tenantId, roomIds, locks } = await tenantOnProvider({ provider: 'seam' });
    const lockId = locks.find((l) => l.deviceId === 'pooled')!.id;
    await addRoomLock({ tenantId, roomId: roomIds[0]!, lockId, actor: TEST_ACTOR });
    await admin.query(`update facilities set check_in_mode = 'self' where tenant_id = $1`, [tenantId]);
    const { reservationId, token } = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: 2 });
    // A pre-issued key exists (every booking makes one), but the guest may not see any PIN before checking in.
    expect(
      (await admin.query(`select count(*)::int as n from access_keys where reservation_id = $1`, [reservationId]))
        .rows[0].n,
    ).toBeGreaterThan(0);
    const before = await reportCodeProblem({ token, clientAddress: nextAddress() });
    expect(before).toEqual({ reported: true, backup: null });
    expect(fake.calls.filter((c) => c.method === 'pullBackupCode')).toHaveLength(0);
    // Checked in from the phone, the same report may give one.
    await checkInAsGuest(token);
    const after = await reportCodeProblem({ token, clientAddress: nextAddress() });
    expect(after.backup?.kind ?? null).not.toBe('guest');
  });
});
