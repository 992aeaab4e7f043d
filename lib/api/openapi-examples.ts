// Examples for the OpenAPI document: what a caller sends and gets back on the main operations.
// openapi.test.ts parses every one with the route's own zod schemas, so an example cannot promise
// a field or a shape the API does not have.

/** Examples of one operation: named request bodies, query or path parameter values, the success body. */
export type TOperationExamples = {
  request?: Record<string, { summary: string; value: unknown }>;
  parameters?: Record<string, string>;
  response?: unknown;
};

const ROOM_101 = '0b7c6a52-3f0e-4d7a-9c43-5e2f1a8d0101';
const ROOM_102 = '0b7c6a52-3f0e-4d7a-9c43-5e2f1a8d0102';
const FACILITY = '5d1e2f3a-4b5c-4d6e-8f70-81a2b3c4d5e6';
const GROUP = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const RESERVATION = 'c3d2e1f0-a9b8-4c7d-8e6f-5a4b3c2d1e0f';
const RESERVATION_2 = 'c3d2e1f0-a9b8-4c7d-8e6f-5a4b3c2d1e10';
const GUEST = 'e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b';
const CHECK_IN = '7f6e5d4c-3b2a-4190-8f7e-6d5c4b3a2918';
const KEY = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';
const PRE_ISSUED_KEY = 'b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6e';

const reservation = {
  id: RESERVATION,
  bookingGroupId: GROUP,
  roomId: ROOM_101,
  roomLabel: '101',
  startsAt: '2026-12-01T15:00:00Z',
  endsAt: '2026-12-03T10:00:00Z',
  status: 'confirmed',
  paid: false,
  source: 'api',
  externalRef: null,
  guest: { id: GUEST, name: 'Aiko Tanaka' },
  guestDisplay: 'Aiko Tanaka',
  guestUrl: 'https://unlock.example/k/3q2-example-token',
};

const activeKey = {
  id: KEY,
  kind: 'guest',
  status: 'active',
  pin: '482915',
  validFrom: '2026-12-01T15:00:00Z',
  expiresAt: '2026-12-03T10:00:00Z',
  vendorSync: 'pending',
  revokedReason: null,
};

const staffCode = {
  id: 'e5f6a7b8-c9d0-4e1f-8a2b-3c4d5e6f7a81',
  kind: 'staff',
  status: 'active',
  pin: '905317',
  validFrom: '2026-12-02T01:00:00Z',
  expiresAt: '2026-12-02T03:00:00Z',
  vendorSync: 'synced',
  revokedReason: null,
  roomId: ROOM_101,
  label: 'Daily clean',
  purpose: 'housekeeping',
  userId: null,
  issuedBy: 'Aiko Tanaka',
};

const sentLink = {
  id: 'd4e5f6a7-b8c9-4d0e-8f1a-2b3c4d5e6f70',
  kind: 'key_link',
  channel: 'email',
  to: 'aiko@example.com',
  status: 'sent',
  attempts: 1,
  sentAt: '2026-11-28T09:12:03Z',
};

/** Keyed by `METHOD /path` as in API_ROUTES. */
export const API_EXAMPLES: Record<string, TOperationExamples> = {
  'GET /rooms': {
    response: {
      data: [
        { id: ROOM_101, label: '101', facilityId: FACILITY },
        { id: ROOM_102, label: '102', facilityId: FACILITY },
      ],
      nextCursor: null,
    },
  },
  'GET /locks': {
    response: {
      data: [
        {
          id: '6f1c2a8e-3d4b-4c5a-9e7f-0a1b2c3d4e5f',
          provider: 'seam',
          deviceId: 'august_device_1',
          name: 'Room 101',
          roomIds: [ROOM_101],
          online: true,
          batteryLevel: 87,
          lastSeenAt: '2026-12-01T06:10:00Z',
        },
        {
          id: '7a2d3b9f-4e5c-4d6b-8f8a-1b2c3d4e5f60',
          provider: 'seam',
          deviceId: 'schlage_device_id',
          name: 'Main entrance',
          roomIds: [ROOM_101, ROOM_102],
          online: false,
          batteryLevel: 12,
          lastSeenAt: '2026-11-30T22:41:00Z',
        },
      ],
      nextCursor: null,
    },
  },
  'POST /booking-groups': {
    request: {
      twoRooms: {
        summary: 'Two rooms for one guest, keys pre-issued',
        value: {
          guest: { name: 'Aiko Tanaka', email: 'aiko@example.com', phone: '+81 90 1234 5678' },
          reservations: [
            { roomId: ROOM_101, startsAt: '2026-12-01T15:00:00Z', endsAt: '2026-12-03T10:00:00Z' },
            { roomId: ROOM_102, startsAt: '2026-12-01T15:00:00Z', endsAt: '2026-12-03T10:00:00Z' },
          ],
          preIssueKeys: true,
        },
      },
      ownCheckout: {
        summary: 'One room, paid through your own Stripe checkout',
        value: {
          guest: { name: 'Aiko Tanaka' },
          reservations: [{ roomId: ROOM_101, startsAt: '2026-12-01T15:00:00Z', endsAt: '2026-12-03T10:00:00Z' }],
          paymentIntentId: 'pi_3QExample0000',
        },
      },
    },
    response: {
      data: {
        id: GROUP,
        status: 'unpaid',
        paymentIntentId: 'pi_3QExample0000',
        reservations: [
          reservation,
          {
            ...reservation,
            id: RESERVATION_2,
            roomId: ROOM_102,
            roomLabel: '102',
            guestUrl: 'https://unlock.example/k/7hx-example-token',
          },
        ],
      },
    },
  },
  'GET /reservations': {
    parameters: { roomId: ROOM_101, from: '2026-12-01T00:00:00Z', to: '2026-12-08T00:00:00Z', limit: '50' },
    response: { data: [reservation], nextCursor: null },
  },
  'GET /reservations/{id}': {
    parameters: { id: RESERVATION },
    response: { data: reservation },
  },
  'GET /room-types': {
    response: {
      data: [
        {
          id: 'f4e3d2c1-b0a9-4877-8665-544332211000',
          facilityId: FACILITY,
          name: 'Standard Double',
          capacity: 2,
          rateCents: 12000,
          currency: 'jpy',
          unit: 'night',
          roomIds: [ROOM_101, ROOM_102],
        },
      ],
      nextCursor: null,
    },
  },
  'POST /reservations/{id}/payments': {
    parameters: { id: RESERVATION },
    request: {
      cash: { summary: 'Cash at the desk', value: { amountCents: 24000, method: 'cash', note: 'Two nights' } },
    },
    response: {
      data: {
        id: 'd5c4b3a2-9180-4f6e-8d5c-4b3a29180f6e',
        reservationId: RESERVATION,
        amountCents: 24000,
        currency: 'jpy',
        method: 'cash',
        note: 'Two nights',
        createdAt: '2026-12-01T15:10:00Z',
      },
    },
  },
  'POST /reservations/{id}/cancel': {
    parameters: { id: RESERVATION },
    request: { reason: { summary: 'Cancel with a reason', value: { reason: 'Guest cancelled by phone' } } },
    response: { data: { id: RESERVATION, status: 'cancelled' } },
  },
  'POST /reservations/{id}/check-in': {
    parameters: { id: RESERVATION },
    request: {
      onTime: { summary: 'Check in once the check-in has opened', value: {} },
      early: { summary: 'Check in early: the desk insists (audited)', value: { early: true } },
    },
    response: { data: { checkInId: CHECK_IN, key: activeKey, revokedKeyIds: [PRE_ISSUED_KEY] } },
  },
  'GET /reservations/{id}/messages': {
    parameters: { id: RESERVATION },
    response: { data: [sentLink], nextCursor: null },
  },
  'POST /reservations/{id}/messages': {
    parameters: { id: RESERVATION },
    request: { resend: { summary: 'Send the guest link again', value: { kind: 'key_link' } } },
    response: {
      data: { ...sentLink, id: '4c3b2a19-0f8e-4d7c-9b6a-5f4e3d2c1b0a', status: 'queued', attempts: 0, sentAt: null },
    },
  },
  'POST /check-ins/{id}/key': {
    parameters: { id: CHECK_IN },
    response: { data: activeKey },
  },
  'POST /keys/{id}/revoke': {
    parameters: { id: KEY },
    request: { lostPhone: { summary: 'Revoke with a reason', value: { reason: 'Guest reported a lost phone' } } },
    response: {
      data: { ...activeKey, status: 'revoked', pin: null, revokedReason: 'Guest reported a lost phone' },
    },
  },
  'POST /reservations/{id}/check-out': {
    parameters: { id: RESERVATION },
    response: { data: { ...reservation, status: 'checked_out' } },
  },
  'POST /reservations/{id}/move': {
    parameters: { id: RESERVATION },
    request: { leak: { summary: 'Move to another room', value: { roomId: ROOM_102, reason: 'Water leak in 101' } } },
    response: { data: { ...reservation, roomId: ROOM_102, roomLabel: '102' } },
  },
  'PATCH /reservations/{id}': {
    parameters: { id: RESERVATION },
    request: {
      extend: { summary: 'Extend by a night', value: { endsAt: '2026-12-04T10:00:00Z' } },
      both: { summary: 'New dates', value: { startsAt: '2026-12-02T15:00:00Z', endsAt: '2026-12-04T10:00:00Z' } },
    },
    response: { data: { ...reservation, endsAt: '2026-12-04T10:00:00Z' } },
  },
  'POST /keys/{id}/reissue': {
    parameters: { id: KEY },
    request: { disclosed: { summary: 'Re-issue with a reason', value: { reason: 'PIN shared by mistake' } } },
    response: { data: { ...activeKey, id: 'd4e5f6a7-b8c9-4d0e-8f1a-2b3c4d5e6f70', pin: '730164' } },
  },
  'POST /rooms/{id}/staff-codes': {
    parameters: { id: ROOM_101 },
    request: {
      housekeeping: {
        summary: 'A housekeeping window',
        value: {
          label: 'Daily clean',
          purpose: 'housekeeping',
          startsAt: '2026-12-02T01:00:00Z',
          endsAt: '2026-12-02T03:00:00Z',
        },
      },
    },
    response: { data: staffCode },
  },
  'GET /rooms/{id}/staff-codes': {
    parameters: { id: ROOM_101 },
    response: { data: [staffCode], nextCursor: null },
  },
};
