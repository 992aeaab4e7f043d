import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACUITY_TYPE,
  acuityForm,
  processAll as processAllOf,
  replayLastHour,
  reservationsOf as reservationsOfTenant,
  sendAcuity,
  tenantWithAcuity,
} from '../../../tooling/testing/booking-webhooks';
import { acuityDatetime, startAcuityStandin } from '../../../tooling/testing/acuity-standin';
import { adminClient, TEST_ACTOR } from '../../../tooling/testing/fixtures';
import { setProviderSecret } from '../../secrets/provider-secrets';
import { deleteGuest } from '../../guests/delete-guest';
import { processWebhookEvent } from '../process-event';
import { signAcuity } from './verify';

let admin: pg.Client;
let standin: Awaited<ReturnType<typeof startAcuityStandin>>;
let n = 0;

const processAll = (tenantId: string) => processAllOf(admin, tenantId);
const reservationsOf = (tenantId: string) => reservationsOfTenant(admin, tenantId);
const at = (hours: number) => new Date(Math.floor(Date.now() / 3_600_000 + hours) * 3_600_000);

/** A new appointment id, and the appointment put in the tenant's account at `[start, start + hours)`. */
function appointment(t: { acuityUserId: string }, start: number, hours: number, extra: { canceled?: boolean } = {}) {
  const id = 90_000 + ++n;
  standin.put(t.acuityUserId, {
    id,
    datetime: acuityDatetime(at(start)),
    duration: hours * 60,
    appointmentTypeID: Number(ACUITY_TYPE),
    firstName: 'Mio',
    lastName: 'Sato',
    email: 'mio@example.com',
    ...extra,
  });
  return id;
}

async function stay(tenantId: string, id: number) {
  const { rows } = await admin.query(
    `select r.status, r.starts_at, r.ends_at, r.source::text, g.name as guest,
            (select json_agg(json_build_object('status', k.status, 'validFrom', k.valid_from, 'expiresAt', k.expires_at)
                              order by k.created_at) from access_keys k where k.reservation_id = r.id) as keys
       from reservations r join guests g on g.tenant_id = r.tenant_id and g.id = r.guest_id
      where r.tenant_id = $1 and r.external_ref = $2`,
    [tenantId, String(id)],
  );
  return rows;
}

async function events(tenantId: string) {
  const { rows } = await admin.query(
    `select dedupe_key, type, status::text, reason from webhook_events where tenant_id = $1 order by received_at, id`,
    [tenantId],
  );
  return rows;
}

beforeAll(async () => {
  process.env.APP_DATA_KEY = 'acuity-webhook-test-key-012345';
  standin = await startAcuityStandin();
  process.env.ACUITY_API_URL = standin.url;
  admin = await adminClient();
});
afterAll(async () => {
  delete process.env.APP_DATA_KEY;
  delete process.env.ACUITY_API_URL;
  await standin.close();
  await admin.end();
});

describe('the Acuity route', () => {
  it('stores a delivery signed with the tenant’s API key once per (appointment, action), and nothing for any bad one', async () => {
    const t = await tenantWithAcuity(standin);
    const other = await tenantWithAcuity(standin);
    const body = acuityForm('appointment.scheduled', 4711);
    const cases: [string, string | null, number][] = [
      [t.tenantId, null, 400],
      [t.tenantId, 'not-a-signature', 400],
      [t.tenantId, signAcuity(body, 'a-wrong-api-key-0000'), 400],
      // Another tenant's key: its own deliveries are valid, but not at this tenant's address.
      [t.tenantId, signAcuity(body, other.acuityKey), 400],
      // The right key over other bytes: a changed form body.
      [t.tenantId, signAcuity(acuityForm('appointment.canceled', 4711), t.acuityKey), 400],
      ['00000000-0000-4000-8000-000000000000', signAcuity(body, t.acuityKey), 404],
      ['not-a-tenant', signAcuity(body, t.acuityKey), 404],
    ];
    for (const [tenantId, header, status] of cases) {
      const response = await sendAcuity(tenantId, body, { apiKey: t.acuityKey, header });
      const answer = (await response.json()) as { error?: { code?: string } };
      expect({ header: header?.slice(0, 8) ?? null, status: response.status, code: answer.error?.code }).toEqual({
        header: header?.slice(0, 8) ?? null,
        status,
        code: status === 400 ? 'invalid_signature' : 'not_found',
      });
    }
    expect(await events(t.tenantId)).toEqual([]);
    expect(await events(other.tenantId)).toEqual([]);

    expect(await (await sendAcuity(t.tenantId, body, { apiKey: t.acuityKey })).json()).toEqual({
      received: true,
      duplicate: false,
    });
    expect(await (await sendAcuity(t.tenantId, body, { apiKey: t.acuityKey })).json()).toEqual({
      received: true,
      duplicate: true,
    });
    expect(await events(t.tenantId)).toEqual([
      { dedupe_key: '4711:appointment.scheduled', type: 'appointment.scheduled', status: 'received', reason: null },
    ]);
  });

  it('refuses a signed body that is not an appointment notification, and a field given twice, storing nothing', async () => {
    const t = await tenantWithAcuity(standin);
    for (const body of [
      'action=appointment.scheduled',
      'action=appointment.scheduled&id=12&id=13',
      'id=abc&action=x',
    ]) {
      const response = await sendAcuity(t.tenantId, body, { apiKey: t.acuityKey });
      expect({ body, status: response.status }).toEqual({ body, status: 400 });
    }
    expect(await events(t.tenantId)).toEqual([]);
  });

  it('stores the same (appointment, action) delivered concurrently once, and books one stay', async () => {
    const t = await tenantWithAcuity(standin);
    const id = appointment(t, 30, 20);
    const body = acuityForm('appointment.scheduled', id);
    const answers = await Promise.all(
      Array.from({ length: 6 }, async () => (await sendAcuity(t.tenantId, body, { apiKey: t.acuityKey })).json()),
    );
    expect(answers.filter((a) => (a as { duplicate: boolean }).duplicate === false)).toHaveLength(1);
    await processAll(t.tenantId);
    // Processed again (a replay): the same state.
    expect(await replayLastHour('acuity', t.tenantId)).toEqual({ requeued: 1 });
    await processAll(t.tenantId);
    expect(await reservationsOf(t.tenantId)).toEqual([
      { external_ref: String(id), status: 'confirmed', keys: 'pre_issued:' },
    ]);
  });
});

describe('Acuity appointments', () => {
  it('scheduled: a reservation of the type’s room at the appointment’s times, with a pre-issued key', async () => {
    const t = await tenantWithAcuity(standin);
    const id = appointment(t, 48, 22);
    await sendAcuity(t.tenantId, acuityForm('appointment.scheduled', id), { apiKey: t.acuityKey });
    await processAll(t.tenantId);
    const [row] = await stay(t.tenantId, id);
    expect(row).toMatchObject({
      status: 'confirmed',
      source: 'acuity',
      guest: 'Mio Sato',
      starts_at: at(48),
      ends_at: at(70),
    });
    expect(row.keys).toEqual([expect.objectContaining({ status: 'pre_issued' })]);
    expect(await events(t.tenantId)).toEqual([
      { dedupe_key: `${id}:appointment.scheduled`, type: 'appointment.scheduled', status: 'processed', reason: null },
    ]);
    // The worker read it with the tenant's own account.
    expect(standin.reads.filter((r) => r.path === `/api/v1/appointments/${id}`)).toEqual([
      { path: `/api/v1/appointments/${id}`, userId: t.acuityUserId, status: 200 },
    ]);
  });

  it('rescheduled: the stay moves to the new times and its key follows', async () => {
    const t = await tenantWithAcuity(standin);
    const id = appointment(t, 48, 22);
    await sendAcuity(t.tenantId, acuityForm('appointment.scheduled', id), { apiKey: t.acuityKey });
    await processAll(t.tenantId);
    const [before] = await stay(t.tenantId, id);
    standin.put(t.acuityUserId, {
      ...standin.get(t.acuityUserId, id)!,
      datetime: acuityDatetime(at(96)),
      duration: 26 * 60,
    });
    await sendAcuity(t.tenantId, acuityForm('appointment.rescheduled', id), { apiKey: t.acuityKey });
    await processAll(t.tenantId);
    const after = await stay(t.tenantId, id);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ status: 'confirmed', starts_at: at(96), ends_at: at(122) });
    expect(after[0].keys).toHaveLength(1);
    expect(after[0].keys[0].status).toBe('pre_issued');
    expect(new Date(after[0].keys[0].expiresAt).getTime()).toBeGreaterThan(
      new Date(before.keys[0].expiresAt).getTime(),
    );
    const audit = await admin.query(
      `select action, actor_label from audit_events where tenant_id = $1 and action = 'reservation.changed'`,
      [t.tenantId],
    );
    expect(audit.rows).toEqual([{ action: 'reservation.changed', actor_label: 'Acuity' }]);
  });

  it('rescheduled before scheduled: one stay at the current times, whichever order they arrive in', async () => {
    const t = await tenantWithAcuity(standin);
    const id = appointment(t, 72, 24);
    standin.put(t.acuityUserId, { ...standin.get(t.acuityUserId, id)!, datetime: acuityDatetime(at(100)) });
    await sendAcuity(t.tenantId, acuityForm('appointment.rescheduled', id), { apiKey: t.acuityKey });
    await processAll(t.tenantId);
    await sendAcuity(t.tenantId, acuityForm('appointment.scheduled', id), { apiKey: t.acuityKey });
    await processAll(t.tenantId);
    const rows = await stay(t.tenantId, id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'confirmed', starts_at: at(100), ends_at: at(124) });
    expect((await events(t.tenantId)).map((e) => e.status)).toEqual(['processed', 'processed']);
  });

  it('scheduled and rescheduled processed at the same moment: one stay at the current times, one key', async () => {
    const t = await tenantWithAcuity(standin);
    const id = appointment(t, 72, 24);
    standin.put(t.acuityUserId, { ...standin.get(t.acuityUserId, id)!, datetime: acuityDatetime(at(110)) });
    await sendAcuity(t.tenantId, acuityForm('appointment.scheduled', id), { apiKey: t.acuityKey });
    await sendAcuity(t.tenantId, acuityForm('appointment.rescheduled', id), { apiKey: t.acuityKey });
    const { rows } = await admin.query(`select id from webhook_events where tenant_id = $1`, [t.tenantId]);
    await Promise.all(rows.map((row) => processWebhookEvent({ eventId: row.id, attempt: 1, maxAttempts: 10 })));
    const stays = await stay(t.tenantId, id);
    expect(stays).toHaveLength(1);
    expect(stays[0]).toMatchObject({ status: 'confirmed', starts_at: at(110), ends_at: at(134) });
    expect(stays[0].keys).toEqual([expect.objectContaining({ status: 'pre_issued' })]);
  });

  it('canceled: the stay is cancelled and its key revoked; a late scheduled changes nothing', async () => {
    const t = await tenantWithAcuity(standin);
    const id = appointment(t, 50, 20);
    await sendAcuity(t.tenantId, acuityForm('appointment.scheduled', id), { apiKey: t.acuityKey });
    await processAll(t.tenantId);
    standin.put(t.acuityUserId, { ...standin.get(t.acuityUserId, id)!, canceled: true });
    await sendAcuity(t.tenantId, acuityForm('appointment.canceled', id), { apiKey: t.acuityKey });
    await processAll(t.tenantId);
    expect(await reservationsOf(t.tenantId)).toEqual([
      { external_ref: String(id), status: 'cancelled', keys: 'revoked:booking_canceled' },
    ]);
    await replayLastHour('acuity', t.tenantId);
    await processAll(t.tenantId);
    expect(await reservationsOf(t.tenantId)).toEqual([
      { external_ref: String(id), status: 'cancelled', keys: 'revoked:booking_canceled' },
    ]);
  });

  it('a scheduled processed after the appointment was cancelled in Acuity books nothing', async () => {
    const t = await tenantWithAcuity(standin);
    const id = appointment(t, 50, 20, { canceled: true });
    await sendAcuity(t.tenantId, acuityForm('appointment.scheduled', id), { apiKey: t.acuityKey });
    await sendAcuity(t.tenantId, acuityForm('appointment.canceled', id), { apiKey: t.acuityKey });
    await processAll(t.tenantId);
    expect(await reservationsOf(t.tenantId)).toEqual([]);
  });

  it('a cancel that arrives after the appointment was read refuses that read’s create: no reservation, no key', async () => {
    const t = await tenantWithAcuity(standin);
    const id = appointment(t, 50, 20);
    await sendAcuity(t.tenantId, acuityForm('appointment.scheduled', id), { apiKey: t.acuityKey });
    // The cancel as it lands while the scheduled's read is on its way (its arrival is after the read began).
    await admin.query(
      `insert into webhook_events (tenant_id, provider, dedupe_key, type, payload, provider_created_at, status)
       values ($1, 'acuity', $2, 'appointment.canceled', '{}', now() + interval '1 minute', 'processed')`,
      [t.tenantId, `${id}:appointment.canceled`],
    );
    await processAll(t.tenantId);
    expect(await reservationsOf(t.tenantId)).toEqual([]);
    expect((await events(t.tenantId))[0]).toMatchObject({ status: 'rejected', reason: 'created_after_cancel' });
  });

  it('an appointment Acuity does not have (or another account’s) is rejected, not retried', async () => {
    const t = await tenantWithAcuity(standin);
    const other = await tenantWithAcuity(standin);
    const theirs = appointment(other, 40, 20);
    await sendAcuity(t.tenantId, acuityForm('appointment.scheduled', theirs), { apiKey: t.acuityKey });
    await processAll(t.tenantId);
    expect(await events(t.tenantId)).toEqual([
      expect.objectContaining({ status: 'rejected', reason: 'appointment_not_found' }),
    ]);
    expect(await reservationsOf(t.tenantId)).toEqual([]);
  });

  it('Acuity failing or answering too much is retried by the worker, and applies once it answers', async () => {
    const t = await tenantWithAcuity(standin);
    const id = appointment(t, 60, 20);
    await sendAcuity(t.tenantId, acuityForm('appointment.scheduled', id), { apiKey: t.acuityKey });
    const [{ id: eventId }] = (await admin.query(`select id from webhook_events where tenant_id = $1`, [t.tenantId]))
      .rows;
    try {
      standin.fault('error');
      await expect(processWebhookEvent({ eventId, attempt: 1, maxAttempts: 10 })).rejects.toMatchObject({
        code: 'acuity_error',
      });
      standin.fault('huge');
      await expect(processWebhookEvent({ eventId, attempt: 2, maxAttempts: 10 })).rejects.toMatchObject({
        code: 'acuity_unreachable',
      });
    } finally {
      standin.fault('none');
    }
    expect((await events(t.tenantId))[0]).toMatchObject({ status: 'failed', reason: 'acuity_unreachable' });
    expect(await reservationsOf(t.tenantId)).toEqual([]);
    await processWebhookEvent({ eventId, attempt: 3, maxAttempts: 10 });
    expect(await reservationsOf(t.tenantId)).toEqual([
      { external_ref: String(id), status: 'confirmed', keys: 'pre_issued:' },
    ]);
  });

  it('a deleted guest stays erased: the stored notifications never named them, and a replay brings nothing back', async () => {
    const t = await tenantWithAcuity(standin);
    const id = appointment(t, 80, 20);
    await sendAcuity(t.tenantId, acuityForm('appointment.scheduled', id), { apiKey: t.acuityKey });
    await processAll(t.tenantId);
    const [{ guest_id: guestId }] = (
      await admin.query(`select guest_id from reservations where tenant_id = $1`, [t.tenantId])
    ).rows;
    await deleteGuest({ tenantId: t.tenantId, guestId, actor: TEST_ACTOR });
    const state = await reservationsOf(t.tenantId);
    await replayLastHour('acuity', t.tenantId);
    await processAll(t.tenantId);
    expect(await reservationsOf(t.tenantId)).toEqual(state);
    for (const table of ['guests', 'webhook_events', 'reservations']) {
      const { rows } = await admin.query(
        `select count(*)::int as n from ${table} t where tenant_id = $1 and row_to_json(t)::text ~* '(mio|sato)'`,
        [t.tenantId],
      );
      expect({ table, n: rows[0].n }).toEqual({ table, n: 0 });
    }
  });

  it('credentials that are not "<user id>:<API key>" are refused and nothing is stored', async () => {
    const t = await tenantWithAcuity(standin);
    for (const value of ['just-a-key-0123456789', 'abc:0123456789abcdef0123', '123:short']) {
      await expect(
        setProviderSecret({ tenantId: t.tenantId, provider: 'acuity', value, actor: TEST_ACTOR }),
      ).rejects.toMatchObject({
        code: 'invalid_request',
      });
    }
    const { rows } = await admin.query(
      `select count(*)::int as n from audit_events where tenant_id = $1 and action = 'secret.set'`,
      [t.tenantId],
    );
    expect(rows[0].n).toBe(1);
  });
});
