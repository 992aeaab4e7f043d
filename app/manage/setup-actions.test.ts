import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStaffUser } from '@/lib/staff/create-staff-user';
import { adminClient, createBookableTenant, TEST_ACTOR } from '@/tooling/testing/fixtures';
import { createTenant } from '@/lib/staff/create-tenant';
import { setMemberActive } from '@/lib/staff/members';

// As in app/manage/locks/actions.test.ts: only the Next.js request is replaced (session, cookies,
// headers, page cache); the actions, the domain and the database are real.
const request = vi.hoisted(() => ({ userId: null as string | null }));
vi.mock('server-only', () => ({}));
vi.mock('next-auth', () => ({
  getServerSession: async () => (request.userId ? { userId: request.userId } : null),
}));
vi.mock('next/headers', () => ({
  cookies: async () => ({ get: () => undefined, set: () => {} }),
  headers: async () => new Headers({ 'accept-language': 'en' }),
}));
vi.mock('next/cache', () => ({ revalidatePath: () => {} }));

const { saveFacilityAction } = await import('@/app/manage/facilities/actions');
const { saveRoomAction, archiveRoomAction } = await import('@/app/manage/rooms/actions');
const { addBookingSourceAction, removeBookingSourceAction } = await import('@/app/manage/booking-sources/actions');
const {
  inviteMemberAction,
  revokeInvitationAction,
  changeMemberRoleAction,
  setMemberActiveAction,
  unlockMemberAction,
} = await import('@/app/manage/staff/actions');

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

const FACILITY = {
  name: 'Shibuya House',
  timeZone: 'Asia/Tokyo',
  bookingUnit: 'night',
  checkInTime: '16:00',
  checkOutTime: '11:00',
  keyLeadMinutes: '60',
  earlyCheckInMinutes: '30',
  address: '1-2-3 Shibuya, Tokyo',
  phone: '+81 3 1234 5678',
  'en.keypad': 'Touch the keypad, enter the PIN, then ✓',
  'en.wifiName': 'house-guest',
  'ja.keypad': 'キーパッドに触れてPINを入力し、✓を押してください',
  'ja.wifiPassword': 'secret-wifi',
};

let admin: pg.Client;
let tenantId: string;
let facilityId: string;
let roomIds: string[];
let manager: { id: string; email: string };
let desk: { id: string; email: string };

async function staffMember(tenant: string, role: 'manager' | 'front_desk') {
  const email = `${role}-${randomBytes(3).toString('hex')}@example.com`;
  const { id } = await createStaffUser({ tenantId: tenant, email, password: 'a long password', role, name: role });
  return { id, email };
}

/** Everything the setup actions could write for a tenant. */
async function footprint(id = tenantId) {
  const { rows } = await admin.query(
    `select (select count(*)::int from audit_events where tenant_id = $1) as audits,
            (select count(*)::int from facilities where tenant_id = $1) as facilities,
            (select count(*)::int from rooms where tenant_id = $1) as rooms,
            (select count(*)::int from rooms where tenant_id = $1 and archived_at is not null) as archived,
            (select count(*)::int from booking_sources where tenant_id = $1) as sources,
            (select count(*)::int from memberships where tenant_id = $1) as members,
            (select count(*)::int from memberships where tenant_id = $1 and role = 'manager' and deactivated_at is null) as managers,
            (select md5(string_agg(f::text, ',' order by f.id)) from facilities f where tenant_id = $1) as facility_rows,
            (select md5(string_agg(r::text, ',' order by r.id)) from rooms r where tenant_id = $1) as room_rows`,
    [id],
  );
  return rows[0] as Record<string, unknown>;
}

beforeAll(async () => {
  admin = await adminClient();
  ({ tenantId, facilityId, roomIds } = await createBookableTenant({ rooms: 1, lockDevices: false }));
  manager = await staffMember(tenantId, 'manager');
  desk = await staffMember(tenantId, 'front_desk');
});
afterAll(async () => {
  await admin.end();
});
beforeEach(() => {
  request.userId = manager.id;
});

describe('the setup pages’ actions', () => {
  it('refuse a front-desk user with the forbidden message and write nothing', async () => {
    const before = await footprint();
    request.userId = desk.id;
    const forbidden = { ok: false, error: { code: 'forbidden' } };
    expect(await saveFacilityAction(null, form(FACILITY))).toMatchObject(forbidden);
    expect(await saveFacilityAction(null, form({ ...FACILITY, facilityId }))).toMatchObject(forbidden);
    expect(
      await saveRoomAction(
        null,
        form({
          facilityId,
          label: '999',
          rate: '1000',
          currency: 'JPY',
          rateUnit: 'night',
          rateName: 'S',
          pinLength: '6',
        }),
      ),
    ).toMatchObject(forbidden);
    expect(await archiveRoomAction(null, form({ roomId: roomIds[0]!, archive: 'true' }))).toMatchObject(forbidden);
    expect(
      await addBookingSourceAction(null, form({ provider: 'cal', eventType: '42', roomId: roomIds[0]! })),
    ).toMatchObject(forbidden);
    expect(
      await inviteMemberAction(null, form({ email: 'new@example.com', name: 'New', role: 'manager' })),
    ).toMatchObject(forbidden);
    expect(await changeMemberRoleAction(null, form({ userId: desk.id, role: 'manager' }))).toMatchObject(forbidden);
    expect(await setMemberActiveAction(null, form({ userId: manager.id, active: 'false' }))).toMatchObject(forbidden);
    expect(await unlockMemberAction(null, form({ userId: desk.id }))).toMatchObject(forbidden);
    expect(
      await revokeInvitationAction(null, form({ invitationId: '00000000-0000-4000-8000-000000000000' })),
    ).toMatchObject(forbidden);
    expect(await footprint()).toEqual(before);
  });

  it('refuse invalid facility input with a message per field, keeping what was typed, and write nothing', async () => {
    const before = await footprint();
    const answer = await saveFacilityAction(
      null,
      form({
        ...FACILITY,
        name: ' ',
        timeZone: 'Mars/Olympus',
        bookingUnit: 'hour',
        opensAt: '18:00',
        closesAt: '09:00',
        keyLeadMinutes: '-5',
        'ja.wifiName': 'x'.repeat(101),
      }),
    );
    expect(answer).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_request',
        fieldErrors: {
          name: 'Enter a name.',
          timeZone: 'Unknown time zone. Type an IANA name from the list, e.g. Asia/Tokyo or Europe/Paris.',
          closesAt: 'Closing time must be after opening time.',
          keyLeadMinutes: 'Enter whole minutes within the allowed range.',
          'ja.wifiName': 'At most 100 characters.',
        },
      },
      values: { timeZone: 'Mars/Olympus', opensAt: '18:00', 'en.keypad': FACILITY['en.keypad'] },
    });
    // The same on an existing facility: it keeps every setting.
    const edit = await saveFacilityAction(null, form({ ...FACILITY, facilityId, checkInTime: '25:00' }));
    expect(edit).toMatchObject({ ok: false, error: { fieldErrors: { checkInTime: expect.any(String) } } });
    expect(await footprint()).toEqual(before);
  });

  it('create a facility with every setting and both languages, audited, then go on to its rooms', async () => {
    const created = saveFacilityAction(
      null,
      form({ ...FACILITY, bookingUnit: 'hour', opensAt: '09:00', closesAt: '21:30' }),
    );
    await expect(created).rejects.toMatchObject({ digest: expect.stringContaining('/manage/rooms?facility=') });
    const { rows } = await admin.query(
      `select id, time_zone, booking_unit, opens_at::text, closes_at::text, key_lead_minutes, early_check_in_minutes,
              address, phone, guest_info from facilities where tenant_id = $1 and name = 'Shibuya House'`,
      [tenantId],
    );
    expect(rows).toEqual([
      {
        id: expect.any(String),
        time_zone: 'Asia/Tokyo',
        booking_unit: 'hour',
        opens_at: '09:00:00',
        closes_at: '21:30:00',
        key_lead_minutes: 60,
        early_check_in_minutes: 30,
        address: '1-2-3 Shibuya, Tokyo',
        phone: '+81 3 1234 5678',
        guest_info: {
          en: { keypad: FACILITY['en.keypad'], wifiName: 'house-guest' },
          ja: { keypad: FACILITY['ja.keypad'], wifiPassword: 'secret-wifi' },
        },
      },
    ]);
    const audit = await admin.query(
      `select actor_id, metadata from audit_events where tenant_id = $1 and action = 'facility.created' and subject_id = $2`,
      [tenantId, rows[0].id],
    );
    expect(audit.rows).toEqual([
      { actor_id: manager.id, metadata: { name: 'Shibuya House', timeZone: 'Asia/Tokyo', bookingUnit: 'hour' } },
    ]);

    // Editing says which settings changed, never the guest texts themselves.
    const edited = await saveFacilityAction(
      null,
      form({ ...FACILITY, facilityId: rows[0].id, 'ja.wifiPassword': 'changed', checkOutTime: '10:30' }),
    );
    expect(edited).toMatchObject({
      ok: true,
      data: { changed: expect.arrayContaining(['guestInfo', 'checkOutTime']) },
    });
    const update = await admin.query(
      `select metadata::text from audit_events where subject_id = $1 and action = 'facility.updated'`,
      [rows[0].id],
    );
    expect(update.rows[0].metadata).not.toContain('secret-wifi');
  });

  it('add a room with its rate in the currency’s minor unit, refuse a bad rate writing nothing, and edit it', async () => {
    const before = await footprint();
    const room = { facilityId, label: '201', currency: 'eur', rateUnit: 'hour', rateName: 'Meeting', pinLength: '6' };
    const bad = await saveRoomAction(null, form({ ...room, rate: '12.345' }));
    expect(bad).toMatchObject({
      ok: false,
      error: { fieldErrors: { rate: expect.stringContaining('Enter an amount') } },
    });
    const badPin = await saveRoomAction(null, form({ ...room, rate: '12', pinLength: '3' }));
    expect(badPin).toMatchObject({ ok: false, error: { fieldErrors: { pinLength: 'A PIN has 4 to 10 digits.' } } });
    expect(await footprint()).toEqual(before);

    const added = await saveRoomAction(null, form({ ...room, rate: '120.50' }));
    expect(added).toMatchObject({ ok: true, data: { created: true } });
    const id = added.ok ? (added.data as { id: string }).id : '';
    const row = await admin.query(`select rate_cents, currency, rate_unit, rate_name from rooms where id = $1`, [id]);
    expect(row.rows).toEqual([{ rate_cents: 12050, currency: 'eur', rate_unit: 'hour', rate_name: 'Meeting' }]);

    const same = await saveRoomAction(null, form({ ...room, rate: '1' }));
    expect(same).toMatchObject({
      ok: false,
      error: { code: 'conflict', message: expect.stringContaining('already exists') },
    });

    const edited = await saveRoomAction(
      null,
      form({ ...room, roomId: id, rate: '9000', currency: 'JPY', rateUnit: 'night' }),
    );
    expect(edited).toMatchObject({ ok: true, data: { changed: ['rateCents', 'currency', 'rateUnit'] } });
    const audit = await admin.query(
      `select action, metadata from audit_events where subject_id = $1 order by occurred_at`,
      [id],
    );
    expect(audit.rows.map((r) => r.action)).toEqual(['room.created', 'room.updated']);
    expect(audit.rows[1].metadata).toMatchObject({
      before: { rateCents: 12050, currency: 'eur', rateUnit: 'hour' },
      after: { rateCents: 9000, currency: 'jpy', rateUnit: 'night' },
    });
  });

  it('map a Calendly event type by id or URI and a Cal.com id to a room, refuse nonsense, and remove a mapping', async () => {
    const bad = await addBookingSourceAction(
      null,
      form({ provider: 'cal', eventType: 'not a number', roomId: roomIds[0]! }),
    );
    expect(bad).toMatchObject({
      ok: false,
      error: { field: 'eventType', message: 'A Cal.com event type is a number.' },
    });
    const byId = await addBookingSourceAction(
      null,
      form({ provider: 'calendly', eventType: 'ABC123', roomId: roomIds[0]! }),
    );
    expect(byId).toMatchObject({ ok: true });
    const { rows } = await admin.query(`select id, event_type from booking_sources where tenant_id = $1`, [tenantId]);
    expect(rows).toEqual([{ id: expect.any(String), event_type: 'https://api.calendly.com/event_types/ABC123' }]);

    const removed = await removeBookingSourceAction(null, form({ sourceId: rows[0].id }));
    expect(removed).toMatchObject({ ok: true });
    const audit = await admin.query(
      `select action, metadata from audit_events where subject_id = $1 order by occurred_at`,
      [rows[0].id],
    );
    expect(audit.rows).toEqual([
      {
        action: 'booking_source.added',
        metadata: { provider: 'calendly', eventType: 'https://api.calendly.com/event_types/ABC123', room: '101' },
      },
      {
        action: 'booking_source.removed',
        metadata: { provider: 'calendly', eventType: 'https://api.calendly.com/event_types/ABC123', room: '101' },
      },
    ]);
  });

  it('treat another tenant’s facility, room, booking source and member as not found, leaving them alone', async () => {
    const other = await createBookableTenant({ rooms: 1, lockDevices: false, name: 'Other' });
    const otherManager = await staffMember(other.tenantId, 'manager');
    await admin.query(
      `insert into booking_sources (tenant_id, provider, event_type, room_id) values ($1, 'cal', '7', $2)`,
      [other.tenantId, other.roomIds[0]],
    );
    const otherSource = (await admin.query(`select id from booking_sources where tenant_id = $1`, [other.tenantId]))
      .rows[0].id;
    const [mine, theirs] = [await footprint(), await footprint(other.tenantId)];
    const notFound = { ok: false, error: { code: 'not_found' } };

    expect(await saveFacilityAction(null, form({ ...FACILITY, facilityId: other.facilityId }))).toMatchObject(notFound);
    const room = { label: 'X', rate: '1', currency: 'JPY', rateUnit: 'night', rateName: 'S', pinLength: '6' };
    expect(await saveRoomAction(null, form({ ...room, facilityId: other.facilityId }))).toMatchObject(notFound);
    expect(await saveRoomAction(null, form({ ...room, roomId: other.roomIds[0]! }))).toMatchObject(notFound);
    expect(await archiveRoomAction(null, form({ roomId: other.roomIds[0]!, archive: 'true' }))).toMatchObject(notFound);
    expect(
      await addBookingSourceAction(null, form({ provider: 'cal', eventType: '8', roomId: other.roomIds[0]! })),
    ).toMatchObject(notFound);
    expect(await removeBookingSourceAction(null, form({ sourceId: otherSource }))).toMatchObject(notFound);
    expect(await changeMemberRoleAction(null, form({ userId: otherManager.id, role: 'front_desk' }))).toMatchObject(
      notFound,
    );
    expect(await setMemberActiveAction(null, form({ userId: otherManager.id, active: 'false' }))).toMatchObject(
      notFound,
    );
    expect(await unlockMemberAction(null, form({ userId: otherManager.id }))).toMatchObject(notFound);

    expect(await footprint()).toEqual(mine);
    expect(await footprint(other.tenantId)).toEqual(theirs);
  });

  it('invite a member (the same answer for an address with an account elsewhere), refuse a member twice, revoke, and refuse the last manager stepping down', async () => {
    const { tenantId: fresh } = await createTenant({ name: `Fresh ${randomBytes(3).toString('hex')}` }).then((t) => ({
      tenantId: t.id,
    }));
    const boss = await staffMember(fresh, 'manager');
    request.userId = boss.id;
    const email = `clerk-${randomBytes(3).toString('hex')}@example.com`;
    const answer = await inviteMemberAction(null, form({ email, name: 'Clerk Kana', role: 'front_desk' }));
    expect(answer).toMatchObject({ ok: true, data: { email, status: 'invited' } });
    // An address that has an account in another tenant: the very same answer, nothing more.
    const elsewhere = await staffMember(tenantId, 'front_desk');
    const existing = await inviteMemberAction(null, form({ email: elsewhere.email, name: 'Desk', role: 'front_desk' }));
    expect(existing).toMatchObject({ ok: true, data: { email: elsewhere.email, status: 'invited' } });
    expect(Object.keys(existing.ok ? existing.data : {}).sort()).toEqual(
      Object.keys(answer.ok ? answer.data : {}).sort(),
    );
    const audit = await admin.query(
      `select metadata from audit_events where tenant_id = $1 and action = 'member.invited' order by occurred_at`,
      [fresh],
    );
    expect(audit.rows).toEqual([
      { metadata: { email, name: 'Clerk Kana', role: 'front_desk' } },
      { metadata: { email: elsewhere.email, name: 'Desk', role: 'front_desk' } },
    ]);

    const again = await inviteMemberAction(null, form({ email: boss.email, name: 'Twice', role: 'manager' }));
    expect(again).toMatchObject({
      ok: false,
      error: { code: 'conflict', message: expect.stringContaining('already a member here') },
    });
    const invalid = await inviteMemberAction(null, form({ email: 'not-an-email', name: '', role: 'owner' }));
    expect(invalid).toMatchObject({
      ok: false,
      error: { fieldErrors: { email: 'Enter a valid email address.', role: 'Choose a role.' } },
    });
    const { rows: open } = await admin.query(`select id from staff_invitations where tenant_id = $1 and email = $2`, [
      fresh,
      email,
    ]);
    expect(await revokeInvitationAction(null, form({ invitationId: open[0].id }))).toMatchObject({
      ok: true,
      data: { revoked: true },
    });

    const stepDown = await changeMemberRoleAction(null, form({ userId: boss.id, role: 'front_desk' }));
    expect(stepDown).toMatchObject({
      ok: false,
      error: { code: 'last_manager', message: expect.stringContaining('manager') },
    });
    const leave = await setMemberActiveAction(null, form({ userId: boss.id, active: 'false' }));
    expect(leave).toMatchObject({ ok: false, error: { code: 'last_manager' } });
    expect(await footprint(fresh)).toMatchObject({ members: 1, managers: 1 });
  });

  it('send a deactivated member’s open session to sign in at its next action', async () => {
    const clerk = await staffMember(tenantId, 'manager');
    request.userId = clerk.id;
    expect(await unlockMemberAction(null, form({ userId: desk.id }))).toMatchObject({ ok: true });
    await setMemberActive({ tenantId, userId: clerk.id, active: false, actor: TEST_ACTOR });
    const before = await footprint();
    await expect(unlockMemberAction(null, form({ userId: desk.id }))).rejects.toMatchObject({
      digest: expect.stringContaining('/sign-in'),
    });
    expect(await footprint()).toEqual(before);
  });
});
