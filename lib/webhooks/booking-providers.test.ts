import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CAL_SECRET,
  CALENDLY_KEY,
  calBooking,
  hoursFromNow,
  invitee,
  processAll as processAllOf,
  reservationsOf as reservationsOfTenant,
  sendCal as sendCalOf,
  sendCalendly as send,
  tenantWithSources,
} from '../../tooling/testing/booking-webhooks';
import { adminClient, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { signCal } from './cal/verify';
import { signCalendly } from './calendly/verify';
import { processWebhookEvent } from './process-event';
import { replayWebhookEvents } from './replay';

let admin: pg.Client;
let n = 0;

const hours = hoursFromNow;
const processAll = (tenantId: string) => processAllOf(admin, tenantId);
const reservationsOf = (tenantId: string) => reservationsOfTenant(admin, tenantId);
const sendCalendly = (tenantId: string, body: unknown, header?: string | null) => send(tenantId, body, { header });
const sendCal = (tenantId: string, body: unknown, header?: string) => sendCalOf(tenantId, body, { header });

async function eventStatus(tenantId: string, dedupeKey: string) {
  const { rows } = await admin.query(
    `select status, reason from webhook_events where tenant_id = $1 and dedupe_key = $2`,
    [tenantId, dedupeKey],
  );
  return rows[0];
}

beforeAll(async () => {
  process.env.APP_DATA_KEY = 'booking-provider-test-key-0123';
  admin = await adminClient();
});
afterAll(async () => {
  delete process.env.APP_DATA_KEY;
  await admin.end();
});

describe('the Calendly route', () => {
  it('stores a verified delivery once and refuses bad signatures, stale timestamps and unknown tenants, storing nothing', async () => {
    const t = await tenantWithSources();
    const body = invitee('invitee.created', {
      uri: `https://api.calendly.com/scheduled_events/E/invitees/I${++n}`,
      start: 5,
      end: 6,
      createdAt: new Date().toISOString(),
    });
    const raw = JSON.stringify(body);
    const cases: [string, string | null, number][] = [
      [t.tenantId, null, 400],
      [t.tenantId, 'not-a-signature', 400],
      [t.tenantId, signCalendly(raw, 'wrong-key'), 400],
      [t.tenantId, signCalendly(raw, CALENDLY_KEY, Math.floor(Date.now() / 1000) - 200), 400],
      ['00000000-0000-4000-8000-000000000000', signCalendly(raw, CALENDLY_KEY), 404],
      ['not-a-tenant', signCalendly(raw, CALENDLY_KEY), 404],
    ];
    for (const [tenantId, header, status] of cases) {
      const response = await sendCalendly(tenantId, body, header);
      expect({ header: header?.slice(0, 12) ?? null, status: response.status }).toEqual({
        header: header?.slice(0, 12) ?? null,
        status,
      });
    }
    expect(
      (await admin.query(`select count(*)::int as n from webhook_events where tenant_id = $1`, [t.tenantId])).rows[0].n,
    ).toBe(0);
    expect(await (await sendCalendly(t.tenantId, body)).json()).toEqual({ received: true, duplicate: false });
    expect(await (await sendCalendly(t.tenantId, body)).json()).toEqual({ received: true, duplicate: true });
  });
});

describe('Calendly bookings', () => {
  it('invitee.created makes a reservation with a pre-issued key; invitee.canceled cancels it and revokes the key', async () => {
    const t = await tenantWithSources();
    const uri = `https://api.calendly.com/scheduled_events/E/invitees/I${++n}`;
    await sendCalendly(
      t.tenantId,
      invitee('invitee.created', { uri, start: 24, end: 26, createdAt: new Date(Date.now() - 60_000).toISOString() }),
    );
    await processAll(t.tenantId);
    expect(await reservationsOf(t.tenantId)).toEqual([{ external_ref: uri, status: 'confirmed', keys: 'pre_issued:' }]);
    await sendCalendly(
      t.tenantId,
      invitee('invitee.canceled', { uri, start: 24, end: 26, createdAt: new Date().toISOString() }),
    );
    await processAll(t.tenantId);
    expect(await reservationsOf(t.tenantId)).toEqual([
      { external_ref: uri, status: 'cancelled', keys: 'revoked:booking_canceled' },
    ]);
  });

  it('refuses a created that arrives after its canceled (by the provider’s timestamps): no reservation, no key, rejected', async () => {
    const t = await tenantWithSources();
    const uri = `https://api.calendly.com/scheduled_events/E/invitees/I${++n}`;
    const createdAt = new Date(Date.now() - 120_000).toISOString();
    const canceledAt = new Date(Date.now() - 60_000).toISOString();
    await sendCalendly(t.tenantId, invitee('invitee.canceled', { uri, start: 30, end: 31, createdAt: canceledAt }));
    await processAll(t.tenantId);
    await sendCalendly(t.tenantId, invitee('invitee.created', { uri, start: 30, end: 31, createdAt }));
    await processAll(t.tenantId);
    expect(await reservationsOf(t.tenantId)).toEqual([]);
    expect(await eventStatus(t.tenantId, `${uri}:invitee.created`)).toEqual({
      status: 'rejected',
      reason: 'created_after_cancel',
    });
    expect(
      (await admin.query(`select count(*)::int as n from access_keys where tenant_id = $1`, [t.tenantId])).rows[0].n,
    ).toBe(0);
    // Replaying the window changes nothing either.
    await replayWebhookEvents({
      provider: 'calendly',
      tenantId: t.tenantId,
      from: new Date(Date.now() - 3_600_000),
      to: new Date(Date.now() + 60_000),
      actor: TEST_ACTOR,
    });
    await processAll(t.tenantId);
    expect(await reservationsOf(t.tenantId)).toEqual([]);
  });

  for (const order of ['canceled first', 'created first'] as const) {
    it(`ends a reschedule with the new slot active and the old one cancelled (${order})`, async () => {
      const t = await tenantWithSources();
      const oldUri = `https://api.calendly.com/scheduled_events/E/invitees/OLD${++n}`;
      const newUri = `https://api.calendly.com/scheduled_events/E2/invitees/NEW${n}`;
      await sendCalendly(
        t.tenantId,
        invitee('invitee.created', {
          uri: oldUri,
          start: 48,
          end: 50,
          createdAt: new Date(Date.now() - 600_000).toISOString(),
        }),
      );
      await processAll(t.tenantId);
      const now = new Date().toISOString();
      const cancel = invitee('invitee.canceled', {
        uri: oldUri,
        start: 48,
        end: 50,
        createdAt: now,
        rescheduled: true,
      });
      const create = invitee('invitee.created', {
        uri: newUri,
        start: 49,
        end: 51,
        createdAt: now,
        oldInvitee: oldUri,
      });
      for (const body of order === 'canceled first' ? [cancel, create] : [create, cancel]) {
        await sendCalendly(t.tenantId, body);
        await processAll(t.tenantId);
      }
      const rows = await reservationsOf(t.tenantId);
      expect(rows).toEqual([
        { external_ref: oldUri, status: 'cancelled', keys: 'revoked:booking_canceled' },
        { external_ref: newUri, status: 'confirmed', keys: 'pre_issued:' },
      ]);
    });
  }

  it('rejects a booking whose slot is taken, with an incident; an unmapped event type is ignored, with its own incident', async () => {
    const t = await tenantWithSources();
    await sendCalendly(
      t.tenantId,
      invitee('invitee.created', { uri: `u-a-${++n}`, start: 70, end: 72, createdAt: new Date().toISOString() }),
    );
    await sendCalendly(
      t.tenantId,
      invitee('invitee.created', { uri: `u-b-${n}`, start: 71, end: 73, createdAt: new Date().toISOString() }),
    );
    await sendCalendly(
      t.tenantId,
      invitee('invitee.created', {
        uri: `u-c-${n}`,
        start: 71,
        end: 73,
        createdAt: new Date().toISOString(),
        eventType: 'https://api.calendly.com/event_types/UNKNOWN',
      }),
    );
    await processAll(t.tenantId);
    expect(await eventStatus(t.tenantId, `u-b-${n}:invitee.created`)).toEqual({
      status: 'rejected',
      reason: 'slot_unavailable',
    });
    expect(await eventStatus(t.tenantId, `u-c-${n}:invitee.created`)).toEqual({
      status: 'ignored',
      reason: 'unmapped_event_type',
    });
    const { rows } = await admin.query(
      `select kind from incidents where tenant_id = $1 and resolved_at is null order by kind`,
      [t.tenantId],
    );
    // A dropped booking is an incident too: its guest would arrive with no key (unmapped-booking-incident.test.ts).
    expect(rows).toEqual([{ kind: 'booking_unmapped' }, { kind: 'slot_unavailable' }]);
  });
});

describe('Cal.com bookings', () => {
  const booking = calBooking;

  it('verifies the signature and maps created, cancelled and rescheduled', async () => {
    const t = await tenantWithSources();
    expect((await sendCal(t.tenantId, booking('BOOKING_CREATED', 'x'), 'no-secret-provided')).status).toBe(400);
    expect((await sendCal(t.tenantId, booking('BOOKING_CREATED', 'x'), signCal('{}', CAL_SECRET))).status).toBe(400);
    const uid = `cal-${++n}`;
    expect(await (await sendCal(t.tenantId, booking('BOOKING_CREATED', uid))).json()).toEqual({
      received: true,
      duplicate: false,
    });
    await processAll(t.tenantId);
    const rescheduled = `cal-${n}-r`;
    await sendCal(
      t.tenantId,
      booking('BOOKING_RESCHEDULED', rescheduled, { rescheduleUid: uid, startTime: hours(91), endTime: hours(93) }),
    );
    await processAll(t.tenantId);
    await sendCal(t.tenantId, booking('BOOKING_CANCELLED', rescheduled));
    await processAll(t.tenantId);
    expect(await reservationsOf(t.tenantId)).toEqual([
      { external_ref: uid, status: 'cancelled', keys: 'revoked:booking_canceled' },
      { external_ref: rescheduled, status: 'cancelled', keys: 'revoked:booking_canceled' },
    ]);
  });
});

describe('a guest email from a booking provider', () => {
  const BAD = [
    'yui@example.com, boss@example.com',
    'yui@example.com\r\nBcc: everyone@example.com',
    'yui@example.com\nCc: boss@example.com',
    'Yui <yui@example.com>',
    'yui@example.com;boss@example.com',
    'not an email',
  ];

  async function guestsAndMail(tenantId: string) {
    const { rows } = await admin.query(
      `select g.email, r.external_ref,
              (select count(*)::int from messages m where m.tenant_id = r.tenant_id and m.reservation_id = r.id) as mails
         from reservations r join guests g on g.tenant_id = r.tenant_id and g.id = r.guest_id
        where r.tenant_id = $1 order by r.created_at`,
      [tenantId],
    );
    return rows as { email: string | null; external_ref: string; mails: number }[];
  }

  it('is taken only as one plain address: a list or a header injection books the stay with no email, and mails no one', async () => {
    const t = await tenantWithSources();
    for (const [i, email] of BAD.entries()) {
      const body = invitee('invitee.created', {
        uri: `https://api.calendly.com/scheduled_events/E/invitees/BAD${++n}`,
        start: 200 + i * 3,
        end: 201 + i * 3,
        createdAt: new Date().toISOString(),
        email,
      });
      expect((await sendCalendly(t.tenantId, body)).status).toBe(200);
    }
    const good = invitee('invitee.created', {
      uri: `https://api.calendly.com/scheduled_events/E/invitees/GOOD${++n}`,
      start: 300,
      end: 301,
      createdAt: new Date().toISOString(),
      email: '  Yui@Example.com ',
    });
    expect((await sendCalendly(t.tenantId, good)).status).toBe(200);
    for (const [i, email] of BAD.entries()) {
      const cal = calBooking('BOOKING_CREATED', `bad-email-${++n}`, {
        startTime: hours(400 + i * 3),
        endTime: hours(401 + i * 3),
        attendees: [{ name: 'Leo', email }],
      });
      expect((await sendCal(t.tenantId, cal)).status).toBe(200);
    }
    await processAll(t.tenantId);
    const rows = await guestsAndMail(t.tenantId);
    expect(rows).toHaveLength(BAD.length * 2 + 1);
    expect(rows.filter((r) => r.email !== null)).toEqual([
      { email: 'Yui@Example.com', external_ref: good.payload.uri, mails: 1 },
    ]);
    expect(rows.filter((r) => r.email === null).every((r) => r.mails === 0)).toBe(true);
  });

  it('is one plain address in the database too, whoever writes it', async () => {
    const t = await tenantWithSources();
    for (const email of [...BAD.slice(0, 5), 'yui@@example.com', ' yui@example.com'])
      await expect(
        admin.query(`insert into guests (tenant_id, name, email) values ($1, 'Yui', $2)`, [t.tenantId, email]),
      ).rejects.toMatchObject({ code: '23514', constraint: 'guests_email_one_address' });
    await admin.query(`insert into guests (tenant_id, name, email) values ($1, 'Yui', 'yui+stay@example.co.jp')`, [
      t.tenantId,
    ]);
  });
});

describe('processing failures per source', () => {
  const brokenEvent = async (tenantId: string, dedupeKey: string): Promise<string> =>
    (
      await admin.query(
        `insert into webhook_events (tenant_id, provider, dedupe_key, type, payload) values ($1, 'calendly', $2, 'invitee.created', '{"broken": true}') returning id`,
        [tenantId, dedupeKey],
      )
    ).rows[0].id;

  it('count a failing delivery once, however often the queue retries it', async () => {
    const t = await tenantWithSources();
    const eventId = await brokenEvent(t.tenantId, `retried-${++n}`);
    for (let attempt = 1; attempt <= 6; attempt++)
      await expect(processWebhookEvent({ eventId, attempt, maxAttempts: 10 })).rejects.toThrow();
    const occurrences = async () =>
      (
        await admin.query(
          `select occurrences, severity from incidents where tenant_id = $1 and kind = 'webhook_processing_failed' and resolved_at is null`,
          [t.tenantId],
        )
      ).rows;
    // Six attempts of one event are one failing delivery: not raised to "5 in a row".
    expect(await occurrences()).toEqual([{ occurrences: 1, severity: 'warning' }]);
    // A second failing delivery is the second in a row, retried or not.
    const second = await brokenEvent(t.tenantId, `retried-${n}-b`);
    for (let attempt = 1; attempt <= 3; attempt++)
      await expect(processWebhookEvent({ eventId: second, attempt, maxAttempts: 10 })).rejects.toThrow();
    expect(await occurrences()).toEqual([{ occurrences: 2, severity: 'warning' }]);
    // A replay of the first failing again is still the same delivery.
    await expect(processWebhookEvent({ eventId, attempt: 1, maxAttempts: 10 })).rejects.toThrow();
    expect(await occurrences()).toEqual([{ occurrences: 2, severity: 'warning' }]);
  });

  it('open one incident at the first failing delivery, raise it at 5 and 20, and resolve it on the next success', async () => {
    const t = await tenantWithSources();
    const first = ++n;
    const rows = [{ id: await brokenEvent(t.tenantId, `broken-${first}`) }];
    const incident = async () =>
      (
        await admin.query(
          `select occurrences, severity, updated_at, resolved_at from incidents where tenant_id = $1 and kind = 'webhook_processing_failed'`,
          [t.tenantId],
        )
      ).rows;
    const seen: { occurrences: number; severity: string; updated_at: Date }[] = [];
    for (let delivery = 1; delivery <= 21; delivery++) {
      const eventId = delivery === 1 ? rows[0]!.id : await brokenEvent(t.tenantId, `broken-${first}-${delivery}`);
      await expect(processWebhookEvent({ eventId, attempt: 1, maxAttempts: 100 })).rejects.toThrow();
      const open = await incident();
      expect(open).toHaveLength(1);
      seen.push(open[0]);
    }
    expect(seen[0]).toMatchObject({ occurrences: 1, severity: 'warning' });
    expect(seen[4]).toMatchObject({ occurrences: 5, severity: 'critical' });
    const updates = new Set(seen.map((s) => s.updated_at.getTime()));
    expect(updates.size).toBe(3); // at 1, 5 and 20 only
    await sendCalendly(
      t.tenantId,
      invitee('invitee.created', { uri: `ok-${n}`, start: 100, end: 101, createdAt: new Date().toISOString() }),
    );
    const ok = await admin.query(`select id from webhook_events where tenant_id = $1 and dedupe_key = $2`, [
      t.tenantId,
      `ok-${n}:invitee.created`,
    ]);
    await processWebhookEvent({ eventId: ok.rows[0].id, attempt: 1, maxAttempts: 10 });
    const after = await incident();
    expect(after).toHaveLength(1);
    expect(after[0].resolved_at).not.toBeNull();
    expect(await eventStatus(t.tenantId, `broken-${first}`)).toMatchObject({ status: 'failed' });
    await processWebhookEvent({ eventId: rows[0]!.id, attempt: 10, maxAttempts: 10 }).catch(() => {});
    expect(await eventStatus(t.tenantId, `broken-${first}`)).toMatchObject({ status: 'dead' });
  });
});

describe('replay', () => {
  it('requeues a window, is audited, and changes nothing already applied', async () => {
    const t = await tenantWithSources();
    const uri = `replay-${++n}`;
    await sendCalendly(
      t.tenantId,
      invitee('invitee.created', { uri, start: 120, end: 121, createdAt: new Date().toISOString() }),
    );
    await processAll(t.tenantId);
    const before = await reservationsOf(t.tenantId);
    const result = await replayWebhookEvents({
      provider: 'calendly',
      tenantId: t.tenantId,
      from: new Date(Date.now() - 60_000),
      to: new Date(Date.now() + 60_000),
      actor: TEST_ACTOR,
    });
    expect(result).toEqual({ requeued: 1 });
    expect(await eventStatus(t.tenantId, `${uri}:invitee.created`)).toMatchObject({ status: 'received' });
    await processAll(t.tenantId);
    expect(await reservationsOf(t.tenantId)).toEqual(before);
    const audit = await admin.query(
      `select metadata->>'requeued' as requeued from audit_events where tenant_id = $1 and action = 'webhook.replayed'`,
      [t.tenantId],
    );
    expect(audit.rows).toEqual([{ requeued: '1' }]);
  });
});
