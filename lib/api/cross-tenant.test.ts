import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../auth/api-keys';
import { completeCheckIn } from '../stays/complete-check-in';
import { adminClient, bookRoom, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { handlerOf } from '../../tooling/testing/route-handlers';
import { API_ROUTES, type IdKind } from './routes';

let admin: pg.Client;
let a: { tenantId: string; apiKey: string };
let b: { tenantId: string; roomId: string; ids: Record<IdKind, string> };

const BODIES: Record<string, unknown> = {
  'POST /reservations/{id}/cancel': { reason: 'cross-tenant probe' },
  'POST /keys/{id}/revoke': { reason: 'cross-tenant probe' },
  'POST /keys/{id}/reissue': { reason: 'cross-tenant probe' },
  'PATCH /reservations/{id}': { endsAt: '2030-01-03T00:00:00Z' },
  'POST /reservations/{id}/move': { roomId: '00000000-0000-4000-8000-000000000102', reason: 'cross-tenant probe' },
  'POST /rooms/{id}/staff-codes': {
    label: 'Probe',
    purpose: 'maintenance',
    startsAt: '2030-01-01T00:00:00Z',
    endsAt: '2030-01-01T02:00:00Z',
  },
  'POST /reservations/{id}/messages': { kind: 'key_link' },
  'POST /reservations/{id}/payments': { amountCents: 100, method: 'cash' },
  'POST /rooms/{id}/ical-feeds': { url: 'https://www.airbnb.com/calendar/ical/probe.ics', channel: 'airbnb' },
  'POST /locks/{id}/unlock': { reason: 'cross-tenant probe' },
  'POST /room-types/{id}/ical-feeds': { url: 'https://www.airbnb.com/calendar/ical/probe.ics', channel: 'airbnb' },
};

/** Every row of tenant B in every tenant table, as one comparable string. */
async function snapshotOfB(): Promise<string> {
  const { rows: tables } = await admin.query<{
    relname: string;
  }>(`select c.relname from pg_class c join pg_attribute a on a.attrelid = c.oid
    where c.relnamespace = 'public'::regnamespace and c.relkind = 'r' and a.attname = 'tenant_id' order by 1`);
  const parts: string[] = [];
  for (const { relname } of tables) {
    const { rows } = await admin.query(
      `select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as h from public.${admin.escapeIdentifier(relname)} t where tenant_id = $1`,
      [b.tenantId],
    );
    parts.push(`${relname}:${rows[0].h}`);
  }
  return parts.join('\n');
}

beforeAll(async () => {
  admin = await adminClient();
  const tenantA = await createBookableTenant({ name: 'Matrix A' });
  a = {
    tenantId: tenantA.tenantId,
    apiKey: (await createApiKey({ tenantId: tenantA.tenantId, name: 'a', actor: TEST_ACTOR })).key,
  };
  const tenantB = await createBookableTenant({ name: 'Matrix B' });
  const booked = await bookRoom({ tenantId: tenantB.tenantId, roomId: tenantB.roomIds[0]! });
  const checkIn = await completeCheckIn({
    tenantId: tenantB.tenantId,
    reservationId: booked.reservationId,
    actor: TEST_ACTOR,
  });
  const bKey = await createApiKey({ tenantId: tenantB.tenantId, name: 'b', actor: TEST_ACTOR });
  const bType = await admin.query<{ id: string }>(
    `insert into room_types (tenant_id, facility_id, name, weekday_cents) values ($1, $2, 'Matrix type', 10000) returning id`,
    [tenantB.tenantId, tenantB.facilityId],
  );
  b = {
    tenantId: tenantB.tenantId,
    roomId: tenantB.roomIds[0]!,
    ids: {
      reservation: booked.reservationId,
      check_in: checkIn.checkInId,
      key: checkIn.key.id,
      guest: booked.guestId,
      api_key: bKey.id,
      room: tenantB.roomIds[0]!,
      room_type: bType.rows[0]!.id,
      lock: (await admin.query<{ id: string }>(`select id from locks where tenant_id = $1 limit 1`, [tenantB.tenantId]))
        .rows[0]!.id,
      // Written here, not through addIcalFeed: that one queues a fetch for whichever worker runs.
      ical_feed: (
        await admin.query<{ id: string }>(
          `insert into ical_feeds (tenant_id, room_id, url, next_fetch_at) values ($1, $2, 'https://www.airbnb.com/calendar/ical/b.ics', now() + interval '1 day') returning id`,
          [tenantB.tenantId, tenantB.roomIds[0]!],
        )
      ).rows[0]!.id,
      // A guest of the stay's register with a passport image (ciphertext under some key: it is never read here).
      registration: (
        await admin.query<{ id: string }>(
          `insert into guest_registrations (tenant_id, reservation_id, position, name, address, address_in_japan,
             nationality, passport_number, passport_image, passport_image_type, key_version)
           values ($1, $2, 1, 'Ada', 'London', false, 'GB', pgp_sym_encrypt('P1', 'k'),
                   pgp_sym_encrypt_bytea('\x89504e47'::bytea, 'k'), 'image/png', 1) returning id`,
          [tenantB.tenantId, booked.reservationId],
        )
      ).rows[0]!.id,
    },
  };
});
afterAll(async () => {
  await admin.end();
});

describe("tenant A's API key against tenant B", () => {
  it('gets 404 on every /api/v1 route given B’s ids, sees none of B’s rows in lists, and changes nothing of B', async () => {
    const before = await snapshotOfB();
    const bIds = [b.tenantId, b.roomId, ...Object.values(b.ids)];
    for (const route of API_ROUTES) {
      const key = `${route.method} ${route.path}`;
      const handler = await handlerOf(route);
      const id = route.idKind ? b.ids[route.idKind] : undefined;
      const url = `http://test/api/v1${route.path.replace('{id}', id ?? '')}`;
      const body =
        key === 'POST /booking-groups'
          ? {
              guest: { name: 'Probe' },
              reservations: [{ roomId: b.roomId, startsAt: '2030-01-01T00:00:00Z', endsAt: '2030-01-02T00:00:00Z' }],
            }
          : key === 'POST /ical-feeds'
            ? { roomId: b.roomId, url: 'https://www.airbnb.com/calendar/ical/probe.ics' }
            : (BODIES[key] ?? (route.method === 'POST' ? {} : undefined));
      const response = await handler(
        new Request(url, {
          method: route.method,
          headers: { authorization: `Bearer ${a.apiKey}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
        { params: Promise.resolve((id ? { id } : {}) as Record<string, string>) },
      );
      const text = await response.text();
      if (route.idKind || route.method !== 'GET') {
        expect({ key, status: response.status, code: text ? JSON.parse(text).error?.code : null }).toEqual({
          key,
          status: 404,
          code: 'not_found',
        });
      } else {
        expect({ key, status: response.status }).toEqual({ key, status: 200 });
        for (const bId of bIds) expect({ key, leaked: text.includes(bId) }).toEqual({ key, leaked: false });
      }
    }
    expect(await snapshotOfB()).toBe(before);
  });
});
