import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../auth/api-keys';
import { adminClient, bookRoom, createBookableTenant, loginClient, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { routeHandler } from './router';

// API.md: GET /api/v1/reservations/{id}/registration — "managers only: the guest register of the stay (audited
// registration.viewed)". A tenant's API key acts for its management (decision 034); the personal columns stay
// readable only through PostgreSQL's definer functions, which name the key as the reader in the audit row.

const readRegister = routeHandler('GET', '/api/v1/reservations/{id}/registration');
const readImage = routeHandler('GET', '/api/v1/registrations/{id}/passport-image');
const putRegister = routeHandler('PUT', '/api/guest/{token}/registration');

let admin: pg.Client;
let address = 0;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(() => admin.end());

const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const japanese = { name: '山田 太郎', address: '東京都千代田区1-1', nationality: 'JP', occupation: '会社員' };
const foreigner = {
  name: 'Ada Lovelace',
  address: '12 St James Square, London',
  nationality: 'GB',
  passportNumber: 'P1234567',
  passportImage: `data:image/png;base64,${PNG_BYTES.toString('base64')}`,
};

/** A tenant whose facility keeps the `jp` register (or none), a stay there, and an API key of the tenant. */
async function stayWithKey(registration: 'jp' | 'none' = 'jp') {
  const tenant = await createBookableTenant({ rooms: 1, lockDevices: false, name: 'Register API' });
  await admin.query(`update facilities set registration = $3 where tenant_id = $1 and id = $2`, [
    tenant.tenantId,
    tenant.facilityId,
    registration,
  ]);
  const booked = await bookRoom({ tenantId: tenant.tenantId, roomId: tenant.roomIds[0]!, guestName: 'Ada Lovelace' });
  const key = await createApiKey({ tenantId: tenant.tenantId, name: 'PMS', actor: TEST_ACTOR });
  return { ...tenant, ...booked, apiKey: key.key, apiKeyId: key.id };
}

/** The guest fills in the register on their phone (the guest link's PUT). */
async function register(token: string, guests: unknown[]) {
  const response = await putRegister(
    new Request(`http://test/api/guest/${token}/registration`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${(address++ % 250) + 1}` },
      body: JSON.stringify({ guests }),
    }),
    { params: Promise.resolve({ token }) },
  );
  expect(response.status).toBe(200);
}

const get = (handler: typeof readRegister, path: string, apiKey: string, id: string) =>
  handler(
    new Request(`http://test/api/v1${path.replace('{id}', id)}`, { headers: { authorization: `Bearer ${apiKey}` } }),
    {
      params: Promise.resolve({ id }),
    },
  );

const audits = async (tenantId: string) =>
  (
    await admin.query(
      `select actor_type::text as actor_type, actor_id, actor_label, action, subject_type, subject_id, metadata
         from audit_events where tenant_id = $1 and action in ('registration.viewed', 'registration.exported') order by occurred_at, id`,
      [tenantId],
    )
  ).rows;

describe('GET /api/v1/reservations/{id}/registration', () => {
  it('gives the tenant’s API key the stay’s register, passport numbers decrypted, images by URL, audited', async () => {
    const stay = await stayWithKey();
    await register(stay.token, [japanese, foreigner]);
    const response = await get(readRegister, '/reservations/{id}/registration', stay.apiKey, stay.reservationId);
    expect(response.status).toBe(200);
    const text = await response.text();
    // The image's bytes are not in the answer (megabytes each): a URL is.
    expect(text).not.toContain(PNG_BYTES.toString('base64').slice(0, 40));
    const { data } = JSON.parse(text);
    const rows = (
      await admin.query(`select id from guest_registrations where reservation_id = $1 order by position`, [
        stay.reservationId,
      ])
    ).rows;
    expect(data).toEqual({
      reservationId: stay.reservationId,
      registration: 'jp',
      complete: true,
      guests: [
        {
          id: rows[0].id,
          position: 1,
          ...japanese,
          addressInJapan: false,
          passportNumber: null,
          passportImage: null,
          retainUntil: expect.any(String),
        },
        {
          id: rows[1].id,
          position: 2,
          name: foreigner.name,
          address: foreigner.address,
          addressInJapan: false,
          nationality: 'GB',
          occupation: null,
          passportNumber: 'P1234567',
          passportImage: {
            type: 'image/png',
            url: expect.stringMatching(
              new RegExp(`^https?://[^/]+/api/v1/registrations/${rows[1].id}/passport-image$`),
            ),
          },
          retainUntil: expect.any(String),
        },
      ],
    });
    expect(await audits(stay.tenantId)).toEqual([
      {
        actor_type: 'api_key',
        actor_id: stay.apiKeyId,
        actor_label: 'API key “PMS”',
        action: 'registration.viewed',
        subject_type: 'reservation',
        subject_id: stay.reservationId,
        metadata: { guests: 2 },
      },
    ]);

    // The image, at its URL: the bytes as the guest sent them, never cached, each reading audited.
    const imagePath = new URL(data.guests[1].passportImage.url).pathname.replace('/api/v1', '');
    const image = await get(readImage, '/registrations/{id}/passport-image', stay.apiKey, rows[1].id);
    expect(imagePath).toBe(`/registrations/${rows[1].id}/passport-image`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('cache-control')).toContain('no-store');
    expect(image.headers.get('x-request-id')).toBeTruthy();
    expect(Buffer.from(await image.arrayBuffer())).toEqual(PNG_BYTES);
    expect((await audits(stay.tenantId)).at(-1)).toMatchObject({
      actor_type: 'api_key',
      actor_id: stay.apiKeyId,
      action: 'registration.viewed',
      metadata: expect.objectContaining({ registrationId: rows[1].id, passportImage: true }),
    });
    // A guest without an image has no image to read.
    const none = await get(readImage, '/registrations/{id}/passport-image', stay.apiKey, rows[0].id);
    expect(none.status).toBe(404);
  });

  it('says a stay’s register is missing, or not kept at a facility without one', async () => {
    const missing = await stayWithKey('jp');
    const empty = await get(readRegister, '/reservations/{id}/registration', missing.apiKey, missing.reservationId);
    expect((await empty.json()).data).toEqual({
      reservationId: missing.reservationId,
      registration: 'jp',
      complete: false,
      guests: [],
    });
    const notKept = await stayWithKey('none');
    const none = await get(readRegister, '/reservations/{id}/registration', notKept.apiKey, notKept.reservationId);
    expect((await none.json()).data).toEqual({
      reservationId: notKept.reservationId,
      registration: 'none',
      complete: true,
      guests: [],
    });
  });

  it('answers 404 for another tenant’s stay or register row and 401 for a revoked key, reading and auditing nothing', async () => {
    const mine = await stayWithKey();
    const theirs = await stayWithKey();
    await register(theirs.token, [foreigner]);
    const theirRow = (
      await admin.query(`select id from guest_registrations where reservation_id = $1`, [theirs.reservationId])
    ).rows[0].id;
    for (const [handler, path, id] of [
      [readRegister, '/reservations/{id}/registration', theirs.reservationId],
      [readRegister, '/reservations/{id}/registration', randomUUID()],
      [readImage, '/registrations/{id}/passport-image', theirRow],
      [readImage, '/registrations/{id}/passport-image', randomUUID()],
    ] as const) {
      const response = await get(handler, path, mine.apiKey, id);
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
      expect((await response.json()).error.code).toBe('not_found');
    }
    expect((await get(readRegister, '/reservations/{id}/registration', mine.apiKey, 'x')).status).toBe(400);
    expect(await audits(mine.tenantId)).toEqual([]);
    expect(await audits(theirs.tenantId)).toEqual([]);

    // A key revoked while this process still holds it: refused by the read's own transaction, nothing audited.
    expect(
      (await get(readRegister, '/reservations/{id}/registration', theirs.apiKey, theirs.reservationId)).status,
    ).toBe(200);
    await admin.query(`update api_keys set revoked_at = now() where id = $1`, [theirs.apiKeyId]);
    for (const [handler, path, id] of [
      [readRegister, '/reservations/{id}/registration', theirs.reservationId],
      [readImage, '/registrations/{id}/passport-image', theirRow],
    ] as const) {
      const revoked = await get(handler, path, theirs.apiKey, id);
      expect({ path, status: revoked.status }).toEqual({ path, status: 401 });
    }
    expect(await audits(theirs.tenantId)).toHaveLength(1);
  });
});

describe('the register in PostgreSQL', () => {
  /** `app_register_stay` in a transaction with these settings, as the login role; its SQLSTATE, or its row count. */
  async function callAs(settings: Record<string, string>, tenantId: string, reservationId: string) {
    const login = await loginClient();
    try {
      await login.query('begin');
      await login.query(`select set_config('role', 'app_authenticated', true)`);
      for (const [name, value] of Object.entries(settings))
        await login.query(`select set_config($1, $2, true)`, [name, value]);
      const { rows } = await login.query(`select * from app_register_stay($1, $2, '{}')`, [tenantId, reservationId]);
      return { rows: rows.length };
    } catch (error) {
      return { code: (error as { code?: string }).code };
    } finally {
      await login.query('rollback').catch(() => {});
      await login.end();
    }
  }

  it('serves only a live API key of the tenant or its manager: no key, another tenant’s or a revoked key, the front desk → 42501', async () => {
    const stay = await stayWithKey();
    const other = await stayWithKey();
    const desk = randomUUID();
    await admin.query(`insert into users (id, email, name, password_hash) values ($1, $2, 'Desk', 'x')`, [
      desk,
      `${desk}@example.com`,
    ]);
    await admin.query(`insert into memberships (tenant_id, user_id, role) values ($1, $2, 'front_desk')`, [
      stay.tenantId,
      desk,
    ]);
    const tenant = { 'app.tenant_id': stay.tenantId };
    expect(await callAs(tenant, stay.tenantId, stay.reservationId)).toEqual({ code: '42501' });
    expect(await callAs({ ...tenant, 'app.user_id': desk }, stay.tenantId, stay.reservationId)).toEqual({
      code: '42501',
    });
    // A front desk member's session that also names the tenant's key is still the front desk.
    expect(
      await callAs(
        { ...tenant, 'app.user_id': desk, 'app.api_key_id': stay.apiKeyId },
        stay.tenantId,
        stay.reservationId,
      ),
    ).toEqual({ code: '42501' });
    expect(await callAs({ ...tenant, 'app.api_key_id': other.apiKeyId }, stay.tenantId, stay.reservationId)).toEqual({
      code: '42501',
    });
    // Another tenant's transaction, even with that tenant's own key, reads nothing of this one.
    expect(
      await callAs(
        { 'app.tenant_id': other.tenantId, 'app.api_key_id': other.apiKeyId },
        stay.tenantId,
        stay.reservationId,
      ),
    ).toEqual({ code: '42501' });
    expect(await callAs({ ...tenant, 'app.api_key_id': stay.apiKeyId }, stay.tenantId, stay.reservationId)).toEqual({
      rows: 1,
    });
    await admin.query(`update api_keys set revoked_at = now() where id = $1`, [stay.apiKeyId]);
    expect(await callAs({ ...tenant, 'app.api_key_id': stay.apiKeyId }, stay.tenantId, stay.reservationId)).toEqual({
      code: '42501',
    });
    // The register's personal columns stay unreadable by the application's roles themselves.
    const direct = await login(stay.tenantId);
    expect(direct).toEqual({ code: '42501' });
  });
});

/** A direct read of a personal column by a tenant's staff role, as the login role. */
async function login(tenantId: string) {
  const client = await loginClient();
  try {
    await client.query('begin');
    await client.query(`select set_config('role', 'app_authenticated', true), set_config('app.tenant_id', $1, true)`, [
      tenantId,
    ]);
    await client.query(`select name, passport_number from guest_registrations`);
    return { code: 'none' };
  } catch (error) {
    return { code: (error as { code?: string }).code };
  } finally {
    await client.query('rollback').catch(() => {});
    await client.end();
  }
}
