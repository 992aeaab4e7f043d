import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeHandler } from '../api/router';
import { getGuestStatus } from '../guests/get-guest-key';
import { deleteGuest } from '../guests/delete-guest';
import { adminClient, asRole, bookRoom, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { trustTestClientAddresses } from '../../tooling/testing/booking-site';
import { countedBody, streamedRequest } from '../../tooling/testing/counted-body';
import { guestTokenFor } from '../auth/guest-links';
import { rotateGuestLink } from '../guests/rotate-guest-link';
import { CLIENT_ADDRESS_HEADER } from '../http/client-address';
import { REGISTRATION_BODY_BYTES } from '../http/body-limit.mjs';
import { MAX_PASSPORT_IMAGE_BYTES } from './registration-input';
import { readPassportImage, readRegisterDay, registerCsv } from './register-day';
import { reservationRegisterState } from './guest-register';
import { sweepGuestRegisters } from './sweep-registers';

// The guest register of Japan's lodging law (issue 31, item 2; decision 028): what the guest's PUT takes and
// refuses, that the passport stays ciphertext at rest, who may read it (a manager, audited; never the front
// desk, in PostgreSQL itself), and that it outlives the guest's deletion until its retention ends.

const put = routeHandler('PUT', '/api/guest/{token}/registration');
let admin: pg.Client;
let address = 0;

beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});

/** A tiny valid PNG (1×1) and the first bytes of a JPEG: what the content check looks at. */
const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG_BYTES = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60, 1)]);
const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;

/** A PUT whose body is a stream of `size` bytes, from `address`: its answer and how many bytes the handler pulled. */
async function callStreamed(token: string, size: number, address = '192.0.2.1') {
  const body = countedBody(size);
  const response = await put(
    streamedRequest(`http://test/api/guest/${token}/registration`, 'PUT', body.stream, {
      [CLIENT_ADDRESS_HEADER]: address,
    }),
    { params: Promise.resolve({ token }) },
  );
  const { error } = (await response.json()) as { error?: { code: string } };
  const retryAfter = response.headers.get('retry-after');
  return { status: response.status, code: error?.code, bodyRead: body.bodyRead(), retryAfter };
}

function call(token: string, body: unknown) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return put(
    new Request(`http://test/api/guest/${token}/registration`, {
      method: 'PUT',
      // Each call from its own address: the register's rate limit is not what these tests are about.
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${(address++ % 250) + 1}` },
      body: text,
    }),
    { params: Promise.resolve({ token }) },
  );
}

async function jpStay(options: { startsInHours?: number; hours?: number } = {}) {
  const { tenantId, facilityId, roomIds } = await createBookableTenant({ name: 'Register' });
  await admin.query(`update facilities set registration = 'jp' where tenant_id = $1 and id = $2`, [
    tenantId,
    facilityId,
  ]);
  const booked = await bookRoom({ tenantId, roomId: roomIds[0]!, guestName: 'Ada Lovelace', ...options });
  return { tenantId, facilityId, roomIds, ...booked };
}

const japanese = { name: '山田 太郎', address: '東京都千代田区1-1', nationality: 'JP', occupation: '会社員' };
const foreigner = (extra: Record<string, unknown> = {}) => ({
  name: 'Ada Lovelace',
  address: '12 St James Square, London',
  nationality: 'GB',
  passportNumber: 'P1234567',
  passportImage: dataUrl('image/png', PNG_BYTES),
  ...extra,
});

async function registerRows(reservationId: string) {
  const { rows } = await admin.query<{
    name: string;
    nationality: string;
    passport_number: Buffer | null;
    passport_image: Buffer | null;
    passport_image_type: string | null;
    retain_until: Date;
    ends_at: Date;
    id: string;
  }>(
    `select g.*, r.ends_at from guest_registrations g join reservations r on r.tenant_id = g.tenant_id and r.id = g.reservation_id
      where g.reservation_id = $1 order by g.position`,
    [reservationId],
  );
  return rows;
}

async function manager(tenantId: string, role: 'manager' | 'front_desk' = 'manager') {
  const userId = randomUUID();
  await admin.query(`insert into users (id, email, name, password_hash) values ($1, $2, 'Mia Manager', 'x')`, [
    userId,
    `${userId}@example.com`,
  ]);
  await admin.query(`insert into memberships (tenant_id, user_id, role) values ($1, $2, $3)`, [tenantId, userId, role]);
  return { tenantId, userId };
}

/** Today in Tokyo (the fixture facility's zone), as the register's day picker names it. */
const tokyoDay = (at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(at);

describe('PUT /api/guest/{token}/registration', () => {
  it('refuses a foreign guest without a passport with issues per field, and writes nothing', async () => {
    const { token, reservationId } = await jpStay();
    const response = await call(token, { guests: [japanese, { name: 'Ada', address: 'London', nationality: 'GB' }] });
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error.code).toBe('invalid_request');
    expect(error.issues.map((i: { path: string }) => i.path).sort()).toEqual([
      'guests.1.passportImage',
      'guests.1.passportNumber',
    ]);
    expect(await registerRows(reservationId)).toEqual([]);
    expect((await getGuestStatus(token))?.registration).toBe('missing');
  });

  it('takes a Japanese guest without a passport, and a foreign guest living in Japan', async () => {
    const { token, reservationId, tenantId } = await jpStay();
    const resident = { name: 'Lee Min', address: '大阪市北区', nationality: 'KR', addressInJapan: true };
    const response = await call(token, { guests: [japanese, resident] });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { complete: true } });
    expect((await registerRows(reservationId)).map((r) => r.nationality)).toEqual(['JP', 'KR']);
    expect((await getGuestStatus(token))?.registration).toBe('complete');
    expect(await reservationRegisterState({ tenantId, reservationId })).toBe('complete');
  });

  it('reads an image by its content: a PNG sent as image/jpeg is a PNG; text claiming image/png is refused', async () => {
    const { token, reservationId } = await jpStay();
    const renamed = await call(token, { guests: [foreigner({ passportImage: dataUrl('image/jpeg', PNG_BYTES) })] });
    expect(renamed.status).toBe(200);
    expect((await registerRows(reservationId))[0]!.passport_image_type).toBe('image/png');

    const text = Buffer.from('this is a text file, not a passport');
    const fake = await call(token, { guests: [foreigner({ passportImage: dataUrl('image/png', text) })] });
    expect(fake.status).toBe(400);
    const { error } = await fake.json();
    expect(error.issues).toEqual([
      expect.objectContaining({ path: 'guests.0.passportImage', message: 'must be a JPEG or PNG image' }),
    ]);
    // The refused PUT left the register as it was.
    expect((await registerRows(reservationId))[0]!.passport_image_type).toBe('image/png');
  });

  it('refuses an image over 5 MB, and takes one of exactly 5 MB (a body far above the other routes’ limit)', async () => {
    const { token, reservationId } = await jpStay();
    const big = Buffer.concat([JPEG_BYTES, Buffer.alloc(MAX_PASSPORT_IMAGE_BYTES + 1 - JPEG_BYTES.length)]);
    const refused = await call(token, { guests: [foreigner({ passportImage: dataUrl('image/jpeg', big) })] });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.issues[0]).toMatchObject({
      path: 'guests.0.passportImage',
      message: 'must be at most 5 MB',
    });
    expect(await registerRows(reservationId)).toEqual([]);

    const exact = big.subarray(0, MAX_PASSPORT_IMAGE_BYTES);
    const taken = await call(token, { guests: [foreigner({ passportImage: dataUrl('image/jpeg', exact) })] });
    expect(taken.status).toBe(200);
    expect((await registerRows(reservationId))[0]!.passport_image_type).toBe('image/jpeg');
    // Ten such guests still fit the route's limit, which no other route has.
    expect(REGISTRATION_BODY_BYTES).toBeGreaterThan(10 * Math.ceil(exact.length / 3) * 4);
  }, 60_000);

  it('refuses a body larger than the register’s own limit with 413', async () => {
    const { token } = await jpStay();
    const response = await put(
      new Request(`http://test/api/guest/${token}/registration`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'content-length': String(REGISTRATION_BODY_BYTES + 1) },
        body: '{}',
      }),
      { params: Promise.resolve({ token }) },
    );
    expect(response.status).toBe(413);
  });

  it('stores the passport number and image encrypted: the raw columns are not the plaintext', async () => {
    const { token, reservationId } = await jpStay();
    expect((await call(token, { guests: [foreigner()] })).status).toBe(200);
    const [row] = await registerRows(reservationId);
    expect(row!.passport_number).not.toBeNull();
    expect(row!.passport_number!.toString('latin1')).not.toContain('P1234567');
    expect(row!.passport_image!.includes(PNG_BYTES)).toBe(false);
    expect(row!.passport_image!.subarray(0, 8).equals(PNG_BYTES.subarray(0, 8))).toBe(false);
    // Yet it decrypts with the install's data key.
    const { rows } = await admin.query<{ number: string }>(
      `select pgp_sym_decrypt(passport_number, $2) as number from guest_registrations where reservation_id = $1`,
      [reservationId, process.env.APP_DATA_KEY],
    );
    expect(rows[0]!.number).toBe('P1234567');
  });

  it('replaces the register on a second PUT (the same body twice gives the same register)', async () => {
    const { token, reservationId } = await jpStay();
    const body = { guests: [japanese, foreigner()] };
    const answers = await Promise.all([call(token, body), call(token, body)]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    expect((await registerRows(reservationId)).map((r) => r.name)).toEqual(['山田 太郎', 'Ada Lovelace']);
    expect((await call(token, { guests: [japanese] })).status).toBe(200);
    expect((await registerRows(reservationId)).map((r) => r.name)).toEqual(['山田 太郎']);
  });

  it('answers 404 for an unknown, replaced or expired link before reading its body, whatever its size', async () => {
    const { tenantId, reservationId, token } = await jpStay();
    await rotateGuestLink({ tenantId, reservationId, actor: TEST_ACTOR });
    const expired = await jpStay();
    await admin.query(`update guest_links set expires_at = now() - interval '1 minute' where reservation_id = $1`, [
      expired.reservationId,
    ]);
    for (const [link, dead] of [
      ['unknown', guestTokenFor(randomUUID())],
      ['replaced', token],
      ['expired', expired.token],
      ['not a token', 'x'],
    ] as const) {
      const answer = await callStreamed(dead, 8 * 1024 * 1024);
      expect({ link, ...answer }).toEqual({ link, status: 404, code: 'not_found', bodyRead: false, retryAfter: null });
    }
  });

  it('answers 429 over the rate limit before reading the body', async () => {
    trustTestClientAddresses();
    const { token, reservationId } = await jpStay();
    const address = `192.0.2.${Math.floor(Math.random() * 250) + 1}`;
    // The link's ten tries a minute from one address (a body that is not JSON: refused, yet counted).
    for (let i = 0; i < 10; i++) expect((await callStreamed(token, 16, address)).status).toBe(400);
    expect(await callStreamed(token, 8 * 1024 * 1024, address)).toEqual({
      status: 429,
      code: 'rate_limited',
      bodyRead: false,
      retryAfter: expect.stringMatching(/^\d+$/),
    });
    expect(await registerRows(reservationId)).toEqual([]);
  });

  it('holds at most two full registers’ worth of large bodies in a process: more waits its turn with 503, unread', async () => {
    const stays = await Promise.all([jpStay(), jpStay(), jpStay()]);
    const body = new TextEncoder().encode(JSON.stringify({ guests: [foreigner()] }));
    /** A PUT whose body (no content-length: it may be as large as the limit) sends a byte, then the rest once released. */
    const held = (token: string) => {
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      let pulls = 0;
      let reading: () => void = () => {};
      const started = new Promise<void>((resolve) => (reading = resolve));
      const stream = new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            pulls++;
            if (pulls === 1) {
              controller.enqueue(body.subarray(0, 1));
              return reading();
            }
            await released;
            controller.enqueue(body.subarray(1));
            controller.close();
          },
        },
        { highWaterMark: 0 },
      );
      const answer = put(streamedRequest(`http://test/api/guest/${token}/registration`, 'PUT', stream), {
        params: Promise.resolve({ token }),
      });
      return { started, release, answer };
    };
    /** A PUT of a body declared with its length, padded with spaces to `size` bytes. */
    const declared = async (token: string, size: number) => {
      const text = JSON.stringify({ guests: [japanese] });
      const padded = text + ' '.repeat(size - Buffer.byteLength(text));
      const response = await put(
        new Request(`http://test/api/guest/${token}/registration`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json', 'content-length': String(size) },
          body: padded,
        }),
        { params: Promise.resolve({ token }) },
      );
      return response.status;
    };
    const first = held(stays[0]!.token);
    await first.started;
    // One full register is in: a body declared at 300 KiB still fits beside it.
    expect(await declared(stays[2]!.token, 300 * 1024)).toBe(200);
    const second = held(stays[1]!.token);
    await second.started;

    expect(await callStreamed(stays[2]!.token, 8 * 1024 * 1024)).toEqual({
      status: 503,
      code: 'unavailable',
      bodyRead: false,
      retryAfter: '5',
    });
    expect(await declared(stays[2]!.token, 300 * 1024)).toBe(503);
    // A body within the ordinary limit is never held back.
    expect(await declared(stays[2]!.token, 1024)).toBe(200);

    first.release();
    second.release();
    expect((await Promise.all([first.answer, second.answer])).map((r) => r.status)).toEqual([200, 200]);
    // Their turns are over: the next large body is read.
    const after = held(stays[2]!.token);
    after.release();
    expect((await after.answer).status).toBe(200);
    expect((await registerRows(stays[2]!.reservationId)).map((r) => r.name)).toEqual(['Ada Lovelace']);
  });

  it('answers 409 where the facility keeps no register, and writes nothing', async () => {
    const { tenantId, roomIds } = await createBookableTenant({ name: 'No register' });
    const { token, reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]! });
    const response = await call(token, { guests: [japanese] });
    expect(response.status).toBe(409);
    expect(await registerRows(reservationId)).toEqual([]);
    expect((await getGuestStatus(token))?.registration).toBe('not_required');
  });
});

describe('app_registration_complete', () => {
  it('is true for a facility without a register, false for a jp stay until every guest is recorded', async () => {
    const { tenantId, roomIds } = await createBookableTenant({ name: 'Complete none' });
    const none = await bookRoom({ tenantId, roomId: roomIds[0]! });
    const jp = await jpStay();
    const complete = async (t: string, r: string) =>
      (await admin.query<{ c: boolean }>(`select app_registration_complete($1, $2) as c`, [t, r])).rows[0]!.c;
    expect(await complete(tenantId, none.reservationId)).toBe(true);
    expect(await complete(jp.tenantId, jp.reservationId)).toBe(false);
    await call(jp.token, { guests: [foreigner()] });
    expect(await complete(jp.tenantId, jp.reservationId)).toBe(true);
    // A guest row whose passport went missing (PostgreSQL's own rule refuses it anyway).
    const refused = await admin
      .query(
        `update guest_registrations set passport_image = null, passport_image_type = null where reservation_id = $1`,
        [jp.reservationId],
      )
      .catch((error: { code?: string; constraint?: string }) => error);
    expect(refused).toMatchObject({ code: '23514', constraint: 'guest_registrations_passport_needed' });
    // Another tenant's transaction cannot ask about this stay.
    const other = await asRole('app_authenticated', tenantId, `select app_registration_complete($1, $2)`, [
      jp.tenantId,
      jp.reservationId,
    ]);
    expect(other).toEqual({ code: '42501' });
  });
});

describe('reading the register', () => {
  it('keeps the personal columns from the front desk and every staff session in PostgreSQL (42501)', async () => {
    const { tenantId, reservationId, token } = await jpStay();
    await call(token, { guests: [foreigner()] });
    for (const column of ['name', 'address', 'nationality', 'passport_number', 'passport_image']) {
      expect(await asRole('app_authenticated', tenantId, `select ${column} from guest_registrations`)).toEqual({
        code: '42501',
      });
    }
    // What staff may read: that the stay has a register.
    const allowed = await asRole(
      'app_authenticated',
      tenantId,
      `select reservation_id, position from guest_registrations where reservation_id = $1`,
      [reservationId],
    );
    expect(allowed).toEqual({ rows: [{ reservation_id: reservationId, position: 1 }] });
    // Nor do the register's readers serve a front desk member.
    const desk = await manager(tenantId, 'front_desk');
    await expect(
      readRegisterDay(desk, {
        facilityId: (await facilityOf(reservationId))!,
        day: tokyoDay(new Date()),
        purpose: 'viewed',
      }),
    ).rejects.toMatchObject({ code: 'forbidden' });
    const login = await import('../../tooling/testing/fixtures').then((m) => m.loginClient());
    try {
      await login.query('begin');
      await login.query(
        `select set_config('role', 'app_authenticated', true), set_config('app.tenant_id', $1, true),
                set_config('app.user_id', $2, true)`,
        [tenantId, desk.userId],
      );
      const error = await login
        .query(
          `select * from app_register_rows($1, $2, now() - interval '1 day', now() + interval '2 days', '{}', 'viewed')`,
          [tenantId, await facilityOf(reservationId)],
        )
        .catch((e: { code?: string }) => e);
      expect(error).toMatchObject({ code: '42501' });
    } finally {
      await login.query('rollback');
      await login.end();
    }
  });

  it('gives a manager the day’s stays with their guests, the passport image audited registration.viewed', async () => {
    const { tenantId, reservationId, token } = await jpStay({ startsInHours: 0.5 });
    await call(token, { guests: [japanese, foreigner()] });
    const reader = await manager(tenantId);
    const facilityId = (await facilityOf(reservationId))!;
    const stays = await readRegisterDay(reader, {
      facilityId,
      day: tokyoDay(new Date(Date.now() + 1_800_000)),
      purpose: 'viewed',
    });
    expect(stays).toHaveLength(1);
    expect(stays[0]).toMatchObject({ reservationId, complete: true });
    expect(stays[0]!.guests.map((g) => [g.name, g.passportNumber, g.hasPassportImage])).toEqual([
      ['山田 太郎', null, false],
      ['Ada Lovelace', 'P1234567', true],
    ]);
    const image = await readPassportImage(reader, stays[0]!.guests[1]!.registrationId);
    expect(image.type).toBe('image/png');
    expect(image.bytes.equals(PNG_BYTES)).toBe(true);
    const { rows } = await admin.query<{ action: string; actor_id: string; metadata: Record<string, unknown> }>(
      `select action, actor_id, metadata from audit_events where tenant_id = $1 and action like 'registration.%'
        order by occurred_at`,
      [tenantId],
    );
    expect(rows.map((r) => r.action)).toEqual(['registration.recorded', 'registration.viewed', 'registration.viewed']);
    expect(rows[2]).toMatchObject({ actor_id: reader.userId, metadata: { passportImage: true, guest: 2 } });
    // No audit row carries the passport's data.
    expect(JSON.stringify(rows)).not.toContain('P1234567');
    expect(JSON.stringify(rows)).not.toContain('Lovelace');

    const csv = registerCsv(
      await readRegisterDay(reader, {
        facilityId,
        day: tokyoDay(new Date(Date.now() + 1_800_000)),
        purpose: 'exported',
      }),
    );
    expect(csv.split('\r\n')[2]).toContain('"P1234567"');
    const exported = await admin.query(
      `select 1 from audit_events where tenant_id = $1 and action = 'registration.exported'`,
      [tenantId],
    );
    expect(exported.rowCount).toBe(1);
  });
});

describe('retention', () => {
  it('keeps the register when the guest is deleted, the audit saying until when', async () => {
    const { tenantId, reservationId, guestId, token } = await jpStay();
    await call(token, { guests: [foreigner()] });
    await deleteGuest({ tenantId, guestId, actor: TEST_ACTOR });
    const rows = await registerRows(reservationId);
    expect(rows.map((r) => r.name)).toEqual(['Ada Lovelace']);
    const until = rows[0]!.retain_until;
    const ends = rows[0]!.ends_at;
    expect(until.getTime()).toBe(new Date(ends).setFullYear(new Date(ends).getFullYear() + 3));
    const { rows: audit } = await admin.query<{ metadata: { registerKeptUntil: string } }>(
      `select metadata from audit_events where tenant_id = $1 and action = 'guest.deleted'`,
      [tenantId],
    );
    expect(audit[0]!.metadata.registerKeptUntil).toBe(until.toISOString());
  });

  it('refuses in PostgreSQL to delete an ended stay’s register before its retention ends, and the sweep erases it after', async () => {
    const { tenantId, reservationId, token } = await jpStay();
    await call(token, { guests: [foreigner()] });
    // The stay ends (checked out a day ago): its register is now the legal record.
    await admin.query(
      `update reservations set status = 'checked_out', starts_at = now() - interval '2 days', ends_at = now() - interval '1 day'
        where id = $1`,
      [reservationId],
    );
    const refused = await admin
      .query(`delete from guest_registrations where reservation_id = $1`, [reservationId])
      .catch((error: { code?: string }) => error);
    expect(refused).toMatchObject({ code: 'UG003' });
    // Nor may the service role delete it (it has no DELETE privilege at all).
    expect(
      await asRole('app_service', tenantId, `delete from guest_registrations where reservation_id = $1`, [
        reservationId,
      ]),
    ).toEqual({
      code: '42501',
    });
    // Nor does the guest's PUT replace it any more: the link ended with the stay.
    expect((await call(token, { guests: [japanese] })).status).toBe(404);
    // Nor the sweep: its retention has years to run.
    expect(await sweepGuestRegisters()).toBe(0);
    expect(await registerRows(reservationId)).toHaveLength(1);

    // Three years and a day later (the stay moved back in time: retention follows the stay's end).
    await admin.query(
      `update reservations set starts_at = now() - interval '3 years 3 days', ends_at = now() - interval '3 years 1 day' where id = $1`,
      [reservationId],
    );
    expect(await sweepGuestRegisters()).toBeGreaterThanOrEqual(1);
    expect(await registerRows(reservationId)).toEqual([]);
    const { rows } = await admin.query(
      `select reason, metadata from audit_events where tenant_id = $1 and action = 'registration.erased'`,
      [tenantId],
    );
    expect(rows).toEqual([{ reason: 'retention_ended', metadata: expect.objectContaining({ guests: 1 }) }]);
  });
});

async function facilityOf(reservationId: string): Promise<string | undefined> {
  const { rows } = await admin.query<{ facility_id: string }>(
    `select ro.facility_id from reservations r join rooms ro on ro.tenant_id = r.tenant_id and ro.id = r.room_id where r.id = $1`,
    [reservationId],
  );
  return rows[0]?.facility_id;
}

// Last in this file: it moves every register row of the test database to a new data key.
describe('data key rotation', () => {
  it('re-encrypts passport data with the new key, each row read with its own version’s key', async () => {
    const { tenantId, reservationId, token } = await jpStay();
    await call(token, { guests: [foreigner()] });
    const { rotateGuestRegisters } = await import('./rotate-registers');
    const old = {
      key: process.env.APP_DATA_KEY!,
      version: process.env.APP_DATA_KEY_VERSION,
      keys: process.env.APP_DATA_KEYS,
    };
    const newKey = 'rotated-data-key-0123456789abcdef';
    try {
      // A keyring without version 1: nothing changes (fails closed).
      process.env.APP_DATA_KEY = newKey;
      process.env.APP_DATA_KEY_VERSION = '2';
      delete process.env.APP_DATA_KEYS;
      await expect(rotateGuestRegisters({ actor: TEST_ACTOR })).rejects.toMatchObject({ code: 'data_key_mismatch' });
      const unchanged = await admin.query<{ key_version: number }>(
        `select key_version from guest_registrations where reservation_id = $1`,
        [reservationId],
      );
      expect(unchanged.rows).toEqual([{ key_version: 1 }]);
      process.env.APP_DATA_KEYS = `1:${old.key}`;
      const { rotated } = await rotateGuestRegisters({ actor: TEST_ACTOR });
      expect(rotated).toBeGreaterThanOrEqual(1);
      const { rows } = await admin.query<{ number: string; key_version: number }>(
        `select pgp_sym_decrypt(passport_number, $2) as number, key_version from guest_registrations where reservation_id = $1`,
        [reservationId, newKey],
      );
      expect(rows).toEqual([{ number: 'P1234567', key_version: 2 }]);
      const reader = await manager(tenantId);
      const stays = await readRegisterDay(reader, {
        facilityId: (await facilityOf(reservationId))!,
        day: tokyoDay(new Date(Date.now() + 3_600_000)),
        purpose: 'viewed',
      });
      const image = await readPassportImage(reader, stays[0]!.guests[0]!.registrationId);
      expect(image.bytes.equals(PNG_BYTES)).toBe(true);
    } finally {
      process.env.APP_DATA_KEY = old.key;
      if (old.version === undefined) delete process.env.APP_DATA_KEY_VERSION;
      else process.env.APP_DATA_KEY_VERSION = old.version;
      if (old.keys === undefined) delete process.env.APP_DATA_KEYS;
      else process.env.APP_DATA_KEYS = old.keys;
    }
  });
});
