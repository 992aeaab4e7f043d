import { assignInstallDevice } from '../../lib/locks/locks';
import { asService, effectStatement, runInTransaction, sqlLiteral, type Tx } from '../../lib/db/tx';
import { bookingSiteUrl } from '../../lib/facilities/update-facility-options';
import { guestTokenFor, guestUrl, hashGuestToken } from '../../lib/auth/guest-links';
import { hashPassword } from '../../lib/auth/password';
import { guestRef } from '../../lib/bookings/create-booking-group';

export const DEMO_PASSWORD = 'unlockos-demo';
const SEED_ACTOR = { type: 'system' as const, id: null, label: 'demo seed' };

export const DEMO_SIGN_INS = [
  { email: 'manager@sakura.example', role: 'manager', tenants: ['Sakura Inn Kyoto'] },
  { email: 'desk@sakura.example', role: 'front_desk', tenants: ['Sakura Inn Kyoto'] },
  { email: 'ops@harbor.example', role: 'manager', tenants: ['Harbor Cowork', 'Sakura Inn Kyoto (front desk)'] },
] as const;

// Fixed ids, so running the seed again finds the same rows instead of adding more.
const ID = {
  sakura: '5a0c0000-0000-4000-8000-000000000001',
  harbor: '5a0c0000-0000-4000-8000-000000000002',
  sakuraFacility: '5a0c0000-0000-4000-8000-000000000011',
  harborFacility: '5a0c0000-0000-4000-8000-000000000012',
  guestAiko: '5a0c0000-0000-4000-8000-000000000031',
  guestBen: '5a0c0000-0000-4000-8000-000000000032',
  resAiko: '5a0c0000-0000-4000-8000-000000000041',
  resBen: '5a0c0000-0000-4000-8000-000000000042',
  linkAiko: '5a0c0000-0000-4000-8000-000000000051',
  linkBen: '5a0c0000-0000-4000-8000-000000000052',
  // Sakura's meeting rooms, rented by the hour (issue 15).
  sakuraMeetings: '5a0c0000-0000-4000-8000-00000000d011',
  meetingA: '5a0c0000-0000-4000-8000-00000000d021',
  // Room types sold on the booking sites (issue 30).
  typeDouble: '5a0c0000-0000-4000-8000-0000000e0001',
  typeTwin: '5a0c0000-0000-4000-8000-0000000e0002',
  typeMeeting: '5a0c0000-0000-4000-8000-0000000e0003',
} as const;

/** The demo's booking sites: Sakura's inn by the night, its meeting rooms by the hour. */
export const DEMO_BOOKING_SITES = [
  { facilityId: ID.sakuraFacility, slug: 'demo' },
  { facilityId: ID.sakuraMeetings, slug: 'demo-hourly' },
] as const;

const DEMO_TERMS =
  'Check-in from 15:00, check-out by 10:00. Cancellation is free until 3 days before arrival; after that the first night is charged. No smoking; quiet hours 22:00–07:00.';
const DEMO_PRIVACY =
  'Sakura Inn keeps your name, email and phone to run your stay and, where Japanese law requires it, the guest register for three years. We share them with no one else.';

// Room types and which rooms are of them (room 101 and 102 doubles, 201 a twin; the meeting room per hour).
const ROOM_TYPES = [
  {
    id: ID.typeDouble,
    facilityId: ID.sakuraFacility,
    name: 'Standard Double',
    description: 'A double bed, a desk and a rain shower; 18 m².',
    capacity: 2,
    weekdayCents: 12000,
    weekendCents: 15000,
    holidayCents: 18000,
    rooms: ['5a0c0000-0000-4000-8000-000000000021', '5a0c0000-0000-4000-8000-000000000022'],
  },
  {
    id: ID.typeTwin,
    facilityId: ID.sakuraFacility,
    name: 'Twin',
    description: 'Two single beds and a view of the garden; 22 m².',
    capacity: 2,
    weekdayCents: 14000,
    weekendCents: 17000,
    holidayCents: 20000,
    rooms: ['5a0c0000-0000-4000-8000-000000000023'],
  },
  {
    id: ID.typeMeeting,
    facilityId: ID.sakuraMeetings,
    name: 'Meeting room',
    description: 'Six seats, a screen and a whiteboard.',
    capacity: 6,
    weekdayCents: 3000,
    weekendCents: 3500,
    holidayCents: null,
    rooms: [ID.meetingA],
  },
] as const;

const DEMO_RESERVATIONS = [
  { tenantId: ID.sakura, reservationId: ID.resAiko, linkId: ID.linkAiko },
  { tenantId: ID.harbor, reservationId: ID.resBen, linkId: ID.linkBen },
] as const;

// Lock device ids are TTLock lock ids: the simulator has these locks from the start (DEFAULT_LOCKS).
const ROOMS = [
  {
    id: '5a0c0000-0000-4000-8000-000000000021',
    tenantId: ID.sakura,
    facilityId: ID.sakuraFacility,
    label: '101',
    lock: '7100101',
  },
  {
    id: '5a0c0000-0000-4000-8000-000000000022',
    tenantId: ID.sakura,
    facilityId: ID.sakuraFacility,
    label: '102',
    lock: '7100102',
  },
  {
    id: '5a0c0000-0000-4000-8000-000000000023',
    tenantId: ID.sakura,
    facilityId: ID.sakuraFacility,
    label: '201',
    lock: '7100201',
  },
  {
    id: '5a0c0000-0000-4000-8000-000000000024',
    tenantId: ID.harbor,
    facilityId: ID.harborFacility,
    label: 'Meeting Room A',
    lock: '7200001',
  },
  {
    id: '5a0c0000-0000-4000-8000-000000000025',
    tenantId: ID.harbor,
    facilityId: ID.harborFacility,
    label: 'Meeting Room B',
    lock: '7200002',
  },
] as const;

/**
 * Seeds the demo: two tenants, their facilities, rooms, staff and today's arrivals. Idempotent:
 * every row has a fixed id or natural key and is inserted only when missing.
 */
export async function seedDemo(now = new Date()): Promise<{
  tenants: string[];
  guestLinks: string[];
  bookingSites: string[];
  signIns: { email: string; password: string; role: string }[];
}> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const at = (days: number, hours: number) => new Date(today.getTime() + days * 86_400_000 + hours * 3_600_000);

  await asService(async (tx) => {
    await tx.tenant.createMany({
      data: [
        { id: ID.sakura, name: 'Sakura Inn Kyoto', stripeAccountId: 'acct_demoSakura' },
        { id: ID.harbor, name: 'Harbor Cowork', stripeAccountId: 'acct_demoHarbor' },
      ],
      skipDuplicates: true,
    });
    await tx.facility.createMany({
      data: [
        {
          id: ID.sakuraFacility,
          tenantId: ID.sakura,
          name: 'Sakura Inn — Gion',
          timeZone: 'Asia/Tokyo',
          defaultLanguage: 'ja',
        },
        { id: ID.harborFacility, tenantId: ID.harbor, name: 'Harbor Cowork — Pier 3', timeZone: 'Europe/Amsterdam' },
      ],
      skipDuplicates: true,
    });
    // A facility rented by the hour, open 09:00–18:00 Tokyo time, with a room rated per hour.
    await tx.facility.createMany({
      data: [
        {
          id: ID.sakuraMeetings,
          tenantId: ID.sakura,
          name: 'Sakura Inn — Meeting rooms',
          timeZone: 'Asia/Tokyo',
          bookingUnit: 'hour',
          opensAt: new Date('1970-01-01T09:00:00Z'),
          closesAt: new Date('1970-01-01T18:00:00Z'),
        },
      ],
      skipDuplicates: true,
    });
    await tx.room.createMany({
      data: [
        {
          id: ID.meetingA,
          tenantId: ID.sakura,
          facilityId: ID.sakuraMeetings,
          label: 'Meeting A',
          rateCents: 3000,
          currency: 'jpy',
          rateUnit: 'hour',
          rateName: 'Meeting room (hourly)',
        },
      ],
      skipDuplicates: true,
    });
    await tx.room.createMany({
      data: ROOMS.map((r) => ({
        id: r.id,
        tenantId: r.tenantId,
        facilityId: r.facilityId,
        label: r.label,
      })),
      skipDuplicates: true,
    });
    await seedBookingSites(tx, now);
    // Each room's own door, a device of the simulator (the demo tenants chose no provider), assigned to
    // its tenant as the operator's `lock-assign` does: on the install's account a tenant sees only those.
    for (const r of ROOMS.filter((room) => room.lock)) {
      const lock = await assignInstallDevice(tx, { tenantId: r.tenantId, deviceId: r.lock!, actor: SEED_ACTOR });
      await tx.roomLock.createMany({
        data: [{ tenantId: r.tenantId, roomId: r.id, lockId: lock.id }],
        skipDuplicates: true,
      });
    }
    await tx.user.createMany({
      data: DEMO_SIGN_INS.map((s) => ({ email: s.email, name: s.email.split('@')[0]!, passwordHash })),
      skipDuplicates: true,
    });
    const users = await tx.user.findMany({ where: { email: { in: DEMO_SIGN_INS.map((s) => s.email) } } });
    const userId = (email: string) => users.find((u) => u.email === email)!.id;
    await tx.membership.createMany({
      data: [
        { tenantId: ID.sakura, userId: userId('manager@sakura.example'), role: 'manager' },
        { tenantId: ID.sakura, userId: userId('desk@sakura.example'), role: 'front_desk' },
        { tenantId: ID.harbor, userId: userId('ops@harbor.example'), role: 'manager' },
        { tenantId: ID.sakura, userId: userId('ops@harbor.example'), role: 'front_desk' },
      ],
      skipDuplicates: true,
    });
    await tx.guest.createMany({
      data: [
        { id: ID.guestAiko, tenantId: ID.sakura, name: 'Aiko Tanaka', email: 'aiko@example.com' },
        { id: ID.guestBen, tenantId: ID.harbor, name: 'Ben Visser', email: 'ben@example.com' },
      ],
      skipDuplicates: true,
    });
    const existing = await tx.reservation.count({ where: { id: { in: [ID.resAiko, ID.resBen] } } });
    if (existing === 0) {
      await tx.reservation.createMany({
        data: [
          {
            id: ID.resAiko,
            tenantId: ID.sakura,
            roomId: ROOMS[0].id,
            guestId: ID.guestAiko,
            startsAt: at(0, 6),
            endsAt: at(2, 1),
            status: 'confirmed',
            source: 'desk',
            roomLabelSnapshot: ROOMS[0].label,
            planNameSnapshot: 'Standard',
            guestRefSnapshot: guestRef(ID.guestAiko),
          },
          {
            id: ID.resBen,
            tenantId: ID.harbor,
            roomId: ROOMS[3].id,
            guestId: ID.guestBen,
            startsAt: at(0, 8),
            endsAt: at(0, 10),
            status: 'confirmed',
            source: 'desk',
            roomLabelSnapshot: ROOMS[3].label,
            planNameSnapshot: 'Hourly',
            guestRefSnapshot: guestRef(ID.guestBen),
          },
        ],
        skipDuplicates: true,
      });
    }
    const reservations = await tx.reservation.findMany({
      where: { id: { in: DEMO_RESERVATIONS.map((r) => r.reservationId) } },
    });
    for (const demo of DEMO_RESERVATIONS) {
      const reservation = reservations.find((r) => r.id === demo.reservationId)!;
      await tx.guestLink.createMany({
        data: [
          {
            id: demo.linkId,
            tenantId: demo.tenantId,
            reservationId: demo.reservationId,
            tokenHash: hashGuestToken(guestTokenFor(demo.linkId)),
            expiresAt: new Date(reservation.endsAt.getTime() + 86_400_000),
          },
        ],
        skipDuplicates: true,
      });
      const keys = await tx.accessKey.count({ where: { reservationId: demo.reservationId } });
      if (keys === 0 && reservation.status === 'confirmed' && reservation.endsAt > now) {
        await runInTransaction(tx, [
          effectStatement(
            `select id from pre_issue_key(${sqlLiteral(demo.tenantId, 'uuid')},
              ${sqlLiteral(demo.reservationId, 'uuid')}, 'system', null, 'demo seed')`,
          ),
        ]);
      }
    }
  });
  return {
    tenants: [ID.sakura, ID.harbor],
    guestLinks: DEMO_RESERVATIONS.map((r) => guestUrl(guestTokenFor(r.linkId))),
    bookingSites: DEMO_BOOKING_SITES.map((site) => bookingSiteUrl(site.slug)),
    signIns: DEMO_SIGN_INS.map((s) => ({ email: s.email, password: DEMO_PASSWORD, role: s.role })),
  };
}

// Sakura's room types with their rates, its rooms given them, and both its facilities published with
// online payment, terms and privacy texts. A facility already published (or given a type) keeps what it has.
async function seedBookingSites(tx: Tx, now: Date): Promise<void> {
  await tx.roomType.createMany({
    data: ROOM_TYPES.map(({ rooms: _rooms, ...type }) => ({ tenantId: ID.sakura, ...type })),
    skipDuplicates: true,
  });
  for (const type of ROOM_TYPES)
    await tx.room.updateMany({
      where: { tenantId: ID.sakura, id: { in: [...type.rooms] }, roomTypeId: null },
      data: { roomTypeId: type.id },
    });
  for (const site of DEMO_BOOKING_SITES)
    await tx.facility.updateMany({
      where: { tenantId: ID.sakura, id: site.facilityId, publishedAt: null, slug: null },
      data: {
        slug: site.slug,
        publishedAt: now,
        paymentMode: site.facilityId === ID.sakuraFacility ? 'online' : 'at_property',
        termsText: DEMO_TERMS,
        privacyText: DEMO_PRIVACY,
      },
    });
}

/** True when the demo's tenants are in the database (so the launcher can show its sign-ins). */
export async function hasDemo(): Promise<boolean> {
  return (await asService((tx) => tx.tenant.count({ where: { id: { in: [ID.sakura, ID.harbor] } } }))) > 0;
}

/** True when the database has no tenant yet (a first start). */
export async function isEmpty(): Promise<boolean> {
  return (await asService((tx) => tx.tenant.count())) === 0;
}

/** The demo guest link printed by `npm start` (Aiko Tanaka, room 101 at Sakura Inn). */
export const DEMO_GUEST_LINK_ID = '5a0c0000-0000-4000-8000-000000000051';
