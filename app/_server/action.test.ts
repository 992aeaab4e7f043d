import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStaffUser } from '@/lib/staff/create-staff-user';
import { adminClient, bookRoom, createBookableTenant } from '@/tooling/testing/fixtures';

// Only what needs a Next.js request is replaced: who is signed in (next-auth's session), the
// request's cookies and headers, and the page cache. Actions, domain and database are the real ones.
const request = vi.hoisted(() => ({
  userId: null as string | null,
  acceptLanguage: 'en',
  referer: null as string | null,
  revalidated: [] as string[],
}));
vi.mock('server-only', () => ({}));
vi.mock('next-auth', () => ({
  getServerSession: async () => (request.userId ? { userId: request.userId } : null),
}));
vi.mock('next/headers', () => ({
  cookies: async () => ({ get: () => undefined, set: () => {} }),
  headers: async () =>
    new Headers({
      'accept-language': request.acceptLanguage,
      ...(request.referer ? { referer: request.referer } : {}),
    }),
}));
vi.mock('next/cache', () => ({
  revalidatePath: (path: string) => void request.revalidated.push(path),
}));

const { completeCheckInAction, revokeKeyAction } = await import('@/app/desk/actions');
const { deleteGuestAction } = await import('@/app/desk/reservations/[id]/guest-actions');
const { createApiKeyAction } = await import('@/app/manage/api-keys/actions');

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

let admin: pg.Client;
let tenantId: string;
let roomIds: string[];
let manager: { id: string };
let desk: { id: string };

function staffMember(role: 'manager' | 'front_desk', name: string) {
  const email = `${role}-${randomBytes(3).toString('hex')}@example.com`;
  return createStaffUser({ tenantId, email, password: 'pw', role, name });
}

beforeAll(async () => {
  admin = await adminClient();
  ({ tenantId, roomIds } = await createBookableTenant({ rooms: 4 }));
  manager = await staffMember('manager', 'Manager Mika');
  desk = await staffMember('front_desk', 'Desk Daichi');
});
afterAll(async () => {
  await admin.end();
});
beforeEach(() => {
  request.userId = null;
  request.acceptLanguage = 'en';
  request.revalidated = [];
});

async function keyOf(reservationId: string): Promise<{ id: string; status: string }> {
  const { rows } = await admin.query(`select id, status from access_keys where reservation_id = $1`, [reservationId]);
  expect(rows).toHaveLength(1);
  return rows[0];
}

async function auditCount(): Promise<number> {
  const { rows } = await admin.query(`select count(*)::int as n from audit_events where tenant_id = $1`, [tenantId]);
  return rows[0].n;
}

describe('staffAction, through the real actions', () => {
  it('sends a signed-out caller to sign in and writes nothing', async () => {
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]! });
    const key = await keyOf(reservationId);
    const audits = await auditCount();

    // Back to the page the action was sent from once signed in.
    request.referer = `https://unlockos.example/desk/reservations/${reservationId}?tab=keys`;
    const refused = revokeKeyAction(null, form({ keyId: key.id, reason: 'lost card' }));
    await expect(refused).rejects.toMatchObject({
      digest: expect.stringContaining(
        `;/sign-in?callbackUrl=${encodeURIComponent(`/desk/reservations/${reservationId}?tab=keys`)};`,
      ),
    });
    request.referer = null;

    expect(await keyOf(reservationId)).toEqual({ id: key.id, status: 'pre_issued' });
    expect(await auditCount()).toBe(audits);
    expect(request.revalidated).toEqual([]);
  });

  it('refuses a front-desk user a manager action with the translated forbidden message, and writes nothing', async () => {
    const { reservationId, guestId } = await bookRoom({ tenantId, roomId: roomIds[1]!, guestName: 'Hana Sato' });
    const apiKeys = await admin.query(`select count(*)::int as n from api_keys where tenant_id = $1`, [tenantId]);
    request.userId = desk.id;

    const deletion = await deleteGuestAction(null, form({ reservationId, confirmName: 'Hana Sato' }));
    expect(deletion).toMatchObject({
      ok: false,
      error: {
        code: 'forbidden',
        message: 'Your role in the current tenant does not allow this. Ask a manager if you need access.',
      },
    });
    request.acceptLanguage = 'ja';
    const creation = await createApiKeyAction(null, form({ name: 'Booking site' }));
    expect(creation).toMatchObject({
      ok: false,
      error: { code: 'forbidden', message: expect.stringMatching(/[ぁ-んァ-ン一-龯]/) },
    });

    const guest = await admin.query(`select name from guests where id = $1`, [guestId]);
    expect(guest.rows).toEqual([{ name: 'Hana Sato' }]);
    const after = await admin.query(`select count(*)::int as n from api_keys where tenant_id = $1`, [tenantId]);
    expect(after.rows[0].n).toBe(apiKeys.rows[0].n);
  });

  it('answers input the schema refuses with its message, echoes what was typed, and writes nothing', async () => {
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[2]! });
    const key = await keyOf(reservationId);
    const audits = await auditCount();
    request.userId = desk.id;

    const blank = await revokeKeyAction(null, form({ keyId: key.id, reason: '   ' }));
    expect(blank).toEqual({
      attempt: 1,
      ok: false,
      error: {
        code: 'invalid_request',
        message: 'Enter a reason.',
        field: 'reason',
        fieldErrors: { reason: 'Enter a reason.' },
      },
      values: { reason: '   ' },
    });
    const tooLong = await revokeKeyAction(blank, form({ keyId: key.id, reason: 'x'.repeat(201) }));
    expect(tooLong).toMatchObject({
      attempt: 2,
      ok: false,
      error: { field: 'reason', message: 'Use 200 characters or fewer.' },
    });
    const malformed = await revokeKeyAction(null, form({ keyId: 'not-a-key', reason: 'lost' }));
    expect(malformed).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', message: 'This key no longer exists.' },
    });

    request.userId = manager.id;
    const name = await createApiKeyAction(null, form({ name: 'n'.repeat(101) }));
    // The schema's limit fills the message's {max}.
    expect(name).toMatchObject({
      ok: false,
      error: { message: 'Use at most 100 characters.' },
      values: { name: 'n'.repeat(101) },
    });

    expect(await keyOf(reservationId)).toEqual({ id: key.id, status: 'pre_issued' });
    expect(await auditCount()).toBe(audits);
  });

  it("treats another tenant's key as not found and leaves it alone", async () => {
    const other = await createBookableTenant({ rooms: 1, name: 'Other' });
    const { reservationId } = await bookRoom({ tenantId: other.tenantId, roomId: other.roomIds[0]! });
    const key = await keyOf(reservationId);
    request.userId = manager.id;

    const answer = await revokeKeyAction(null, form({ keyId: key.id, reason: 'not yours' }));

    expect(answer).toMatchObject({ ok: false, error: { code: 'not_found', message: 'This key no longer exists.' } });
    expect(await keyOf(reservationId)).toEqual({ id: key.id, status: 'pre_issued' });
    const audit = await admin.query(
      `select count(*)::int as n from audit_events where tenant_id = $1 and action = 'key.revoked'`,
      [other.tenantId],
    );
    expect(audit.rows[0].n).toBe(0);
  });

  it('checks a guest in, audited as the signed-in staff member, and refreshes the desk', async () => {
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[3]!, startsInHours: 1 });
    request.userId = desk.id;

    const answer = await completeCheckInAction(null, form({ reservationId }));

    expect(answer).toMatchObject({
      ok: true,
      data: { reservationId, revokedCount: 1, pin: expect.stringMatching(/^\d{6}$/) },
    });
    const checkIns = await admin.query(`select count(*)::int as n from check_ins where reservation_id = $1`, [
      reservationId,
    ]);
    expect(checkIns.rows[0].n).toBe(1);
    const audit = await admin.query(
      `select distinct actor_type, actor_id, actor_label from audit_events
        where tenant_id = $1 and action in ('checkin.completed', 'key.revoked', 'key.issued') and occurred_at > now() - interval '1 minute'
          and actor_type = 'user'`,
      [tenantId],
    );
    expect(audit.rows).toEqual([{ actor_type: 'user', actor_id: desk.id, actor_label: 'Desk Daichi' }]);
    expect(request.revalidated).toEqual(['/desk']);
  });

  it("shows a domain refusal in the action's words: a check-in before it opens", async () => {
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: 48 });
    request.userId = desk.id;

    const answer = await completeCheckInAction(null, form({ reservationId }));

    expect(answer).toMatchObject({
      ok: false,
      error: {
        code: 'too_early',
        message: 'Check-in for this stay has not opened yet. If the room is free, use “Check in early”.',
      },
      values: { reservationId },
    });
    const checkIns = await admin.query(`select count(*)::int as n from check_ins where reservation_id = $1`, [
      reservationId,
    ]);
    expect(checkIns.rows[0].n).toBe(0);
  });

  it('lets the body refuse what only the data can tell: a mistyped guest name deletes nothing', async () => {
    const { reservationId, guestId } = await bookRoom({
      tenantId,
      roomId: roomIds[1]!,
      startsInHours: 72,
      guestName: 'Ren Ito',
    });
    request.userId = manager.id;

    const answer = await deleteGuestAction(null, form({ reservationId, confirmName: 'Ren Itoh' }));

    expect(answer).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_request',
        field: 'confirmName',
        message: 'The name you typed doesn’t match the guest’s name.',
      },
    });
    const guest = await admin.query(`select name from guests where id = $1`, [guestId]);
    expect(guest.rows).toEqual([{ name: 'Ren Ito' }]);

    const done = await deleteGuestAction(null, form({ reservationId, confirmName: 'Ren Ito' }));
    expect(done).toMatchObject({ ok: true });
    const gone = await admin.query(`select name from guests where id = $1`, [guestId]);
    expect(gone.rows).toEqual([]);
  });
});
