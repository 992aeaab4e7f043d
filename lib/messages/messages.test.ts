import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../auth/api-keys';
import { createBookingGroup } from '../bookings/create-booking-group';
import { deleteGuest } from '../guests/delete-guest';
import { rotateGuestLink } from '../guests/rotate-guest-link';
import {
  invitee,
  processAll,
  replayLastHour,
  sendCalendly,
  tenantWithSources,
} from '../../tooling/testing/booking-webhooks';
import { adminClient, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { startMailCatcher, type CaughtMessage, type MailCatcher } from '../../tooling/mail-catcher/mail-catcher';
import { sendMessage } from './send-message';
import { routeHandler } from '../api/router';

const listRoute = routeHandler('GET', '/api/v1/reservations/{id}/messages');
const resendRoute = routeHandler('POST', '/api/v1/reservations/{id}/messages');

// Guest messages end to end inside one process: the outbox rows the triggers write, the worker's
// send over a real SMTP server (smtp-server + mailparser, in-process), and what arrives, counted.

let admin: pg.Client;
let catcher: MailCatcher;
const inbox: CaughtMessage[] = [];
let refuseAll = false;

beforeAll(async () => {
  admin = await adminClient();
  catcher = await startMailCatcher({
    onMail: async (mail) => {
      if (refuseAll) throw Object.assign(new Error('Mailbox unavailable'), { responseCode: 450 });
      inbox.push(mail);
    },
  });
  process.env.SMTP_URL = `smtp://127.0.0.1:${catcher.port}`;
});
afterEach(() => {
  refuseAll = false;
});
afterAll(async () => {
  delete process.env.SMTP_URL;
  await catcher.close();
  await admin.end();
});

const mailTo = (address: string) => inbox.filter((m) => m.envelope.to.includes(address));

/** Runs every send_message job of the tenant as the worker would (attempt by attempt), until none is left. */
async function drain(tenantId: string): Promise<void> {
  for (let round = 0; round < 10; round++) {
    const { rows } = await admin.query<{ id: string; payload: { messageId: string }; attempts: number; max: number }>(
      `select j.id, j.payload, j.attempts, j.max_attempts as max from graphile_worker._private_jobs j
         join graphile_worker._private_tasks t on t.id = j.task_id
        where t.identifier = 'send_message' and j.payload->>'tenantId' = $1 order by j.id`,
      [tenantId],
    );
    if (rows.length === 0) return;
    for (const job of rows) {
      const attempt = job.attempts + 1;
      let done = true;
      try {
        await sendMessage({ tenantId, messageId: job.payload.messageId, attempt, maxAttempts: job.max });
      } catch {
        done = attempt >= job.max;
      }
      if (done) await admin.query('delete from graphile_worker._private_jobs where id = $1', [job.id]);
      else await admin.query('update graphile_worker._private_jobs set attempts = $2 where id = $1', [job.id, attempt]);
    }
  }
}

async function messagesOf(tenantId: string) {
  const { rows } = await admin.query(
    `select id, reservation_id, kind::text, occasion, to_address, status::text, attempts, last_error, sent_at
       from messages where tenant_id = $1 order by created_at, id`,
    [tenantId],
  );
  return rows;
}

async function book(tenantId: string, roomId: string, email: string | null, startsInHours = 30) {
  const startsAt = new Date(Date.now() + startsInHours * 3_600_000);
  const group = await createBookingGroup({
    tenantId,
    actor: TEST_ACTOR,
    guest: { name: 'Aiko Tanaka', email },
    source: 'desk',
    reservations: [{ roomId, startsAt, endsAt: new Date(startsAt.getTime() + 2 * 86_400_000) }],
  });
  return group.reservations[0]!;
}

describe('a booking', () => {
  it('sends exactly one key_link email with the guest link, never the PIN, and the stay as an .ics', async () => {
    const t = await createBookableTenant({ rooms: 1 });
    await admin.query(`update facilities set default_language = 'ja' where id = $1`, [t.facilityId]);
    const booked = await book(t.tenantId, t.roomIds[0]!, 'aiko.one@example.com');
    // The outbox row and its job were written in the booking's own transaction.
    const [message] = await messagesOf(t.tenantId);
    expect(message).toMatchObject({
      kind: 'key_link',
      occasion: 'booking',
      status: 'queued',
      to_address: 'aiko.one@example.com',
    });
    const jobs = await admin.query(`select key from graphile_worker._private_jobs where key = $1`, [
      `message:${message.id}`,
    ]);
    expect(jobs.rowCount).toBe(1);

    await drain(t.tenantId);
    await drain(t.tenantId);
    const mails = mailTo('aiko.one@example.com');
    expect(mails).toHaveLength(1);
    const mail = mails[0]!.parsed;
    const { rows: keys } = await admin.query(`select pin from access_keys where reservation_id = $1`, [booked.id]);
    expect(keys).toHaveLength(1);
    expect(mail.text).toContain(`/k/${booked.guestLinkToken}`);
    expect(mail.html).toContain(`/k/${booked.guestLinkToken}`);
    for (const body of [mail.text, mail.html, mail.subject]) expect(body).not.toContain(keys[0].pin);
    expect(mail.headers.get('x-unlockos-message-id')).toBe(message.id);
    const ics = mail.attachments.find((a) => a.filename === 'stay.ics');
    expect(ics?.contentType).toBe('text/calendar');
    expect(ics?.content.toString()).toContain(`UID:${booked.id}@`);
    expect(ics?.content.toString()).not.toContain(keys[0].pin);
    // A facility whose guests' language is Japanese: the mail is in Japanese.
    expect(mail.subject).toContain('鍵のご案内');
    expect(await messagesOf(t.tenantId)).toMatchObject([{ status: 'sent', attempts: 1, last_error: null }]);
    const audit = await admin.query(
      `select count(*)::int as n from audit_events where tenant_id = $1 and action = 'message.sent' and subject_id = $2`,
      [t.tenantId, message.id],
    );
    expect(audit.rows[0].n).toBe(1);
  });

  it('is sent once when two workers run its job at the same moment', async () => {
    const t = await createBookableTenant({ rooms: 1 });
    await book(t.tenantId, t.roomIds[0]!, 'twice.at.once@example.com');
    const [message] = await messagesOf(t.tenantId);
    const runs = await Promise.allSettled(
      [1, 2].map(() => sendMessage({ tenantId: t.tenantId, messageId: message.id, attempt: 1, maxAttempts: 6 })),
    );
    // One sends; the other waits for the row, then finds it sent or being sent (and is retried later).
    expect(runs.filter((r) => r.status === 'fulfilled' && r.value === 'sent')).toHaveLength(1);
    await sendMessage({ tenantId: t.tenantId, messageId: message.id, attempt: 2, maxAttempts: 6 });
    expect(mailTo('twice.at.once@example.com')).toHaveLength(1);
    expect(await messagesOf(t.tenantId)).toMatchObject([{ status: 'sent', attempts: 1 }]);
  });

  it('gives a guest without an email no message at all', async () => {
    const t = await createBookableTenant({ rooms: 1 });
    await book(t.tenantId, t.roomIds[0]!, null);
    expect(await messagesOf(t.tenantId)).toEqual([]);
  });

  it('mails the newest live link after a rotation, and skips a stay cancelled before the send', async () => {
    const t = await createBookableTenant({ rooms: 2 });
    const rotated = await book(t.tenantId, t.roomIds[0]!, 'rotated@example.com');
    const { guestUrl } = await rotateGuestLink({ tenantId: t.tenantId, reservationId: rotated.id, actor: TEST_ACTOR });
    const cancelled = await book(t.tenantId, t.roomIds[1]!, 'cancelled@example.com');
    await admin.query(`update reservations set status = 'cancelled', cancelled_at = now() where id = $1`, [
      cancelled.id,
    ]);
    await drain(t.tenantId);
    // The booking's key_link, and the stay_changed of the rotation's re-issued key (a new PIN): both
    // carry the newest live link, never the replaced one.
    const mails = mailTo('rotated@example.com');
    expect(mails).toHaveLength(2);
    for (const mail of mails) {
      expect(mail.parsed.text).toContain(guestUrl);
      expect(mail.parsed.text).not.toContain(rotated.guestLinkToken);
    }
    expect(mailTo('cancelled@example.com')).toHaveLength(0);
    const rows = await messagesOf(t.tenantId);
    expect(rows.find((m) => m.reservation_id === cancelled.id)).toMatchObject({
      status: 'skipped',
      last_error: 'reservation_cancelled',
    });
  });
});

describe('a Calendly booking delivered five times and replayed', () => {
  it('sends one email', async () => {
    const t = await tenantWithSources();
    const body = invitee('invitee.created', {
      uri: 'https://api.calendly.com/scheduled_events/E/invitees/FIVE',
      start: 48,
      end: 72,
      createdAt: new Date().toISOString(),
      email: 'five.times@example.com',
    });
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => sendCalendly(t.tenantId, body)));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    await processAll(admin, t.tenantId);
    await drain(t.tenantId);
    await replayLastHour('calendly', t.tenantId);
    await processAll(admin, t.tenantId);
    await drain(t.tenantId);
    expect(mailTo('five.times@example.com')).toHaveLength(1);
    expect(await messagesOf(t.tenantId)).toMatchObject([{ kind: 'key_link', status: 'sent' }]);
  });
});

describe('a stay change', () => {
  it('sends one stay_changed email per changing transaction, however many audit rows it wrote, and never twice', async () => {
    const t = await createBookableTenant({ rooms: 1 });
    const booked = await book(t.tenantId, t.roomIds[0]!, 'changed@example.com');
    // What the move/PATCH work writes, exactly once per real change, in its own transaction: a change
    // alone, then a move that also re-issues the key (two audit rows, one change to the guest).
    await admin.query(
      `insert into audit_events (tenant_id, actor_type, actor_label, action, subject_type, subject_id)
       values ($1, 'system', 'test', 'reservation.changed', 'reservation', $2)`,
      [t.tenantId, booked.id],
    );
    const { rows: keys } = await admin.query(`select id from access_keys where reservation_id = $1`, [booked.id]);
    await admin.query(
      `insert into audit_events (tenant_id, actor_type, actor_label, action, subject_type, subject_id)
       values ($1, 'system', 'test', 'reservation.moved', 'reservation', $2),
              ($1, 'system', 'test', 'key.reissued', 'key', $3)`,
      [t.tenantId, booked.id, keys[0].id],
    );
    await drain(t.tenantId);
    const rows = await messagesOf(t.tenantId);
    expect(rows.map((m) => `${m.kind}:${m.status}`)).toEqual([
      'key_link:sent',
      'stay_changed:sent',
      'stay_changed:sent',
    ]);
    expect(rows[1].occasion).toMatch(/^change:\d+$/);
    // The same change enqueued again (a retried or replayed path) finds its row and adds nothing.
    const again = await admin.query(`select * from app_enqueue_guest_message($1, $2, 'stay_changed', $3)`, [
      t.tenantId,
      booked.id,
      rows[1].occasion,
    ]);
    expect(again.rowCount).toBe(0);
    const mails = mailTo('changed@example.com');
    expect(mails).toHaveLength(3);
    // The calendar replaces the event: SEQUENCE counts the stay's changes (two by the time it is sent).
    expect(mails[1]!.parsed.attachments[0]!.content.toString()).toContain('SEQUENCE:2');
  });
});

describe('an SMTP server that refuses', () => {
  it('is retried with every attempt counted, then the message is failed and says why', async () => {
    const t = await createBookableTenant({ rooms: 1 });
    await book(t.tenantId, t.roomIds[0]!, 'refused@example.com');
    refuseAll = true;
    await drain(t.tenantId);
    expect(mailTo('refused@example.com')).toHaveLength(0);
    const [message] = await messagesOf(t.tenantId);
    expect(message).toMatchObject({ status: 'failed', attempts: 6, sent_at: null });
    expect(message.last_error).toContain('450');
  });
});

describe('GET and POST /reservations/{id}/messages', () => {
  it('lists and resends for the key’s tenant, 404 for another tenant’s reservation, 429 past the limit', async () => {
    const a = await createBookableTenant({ rooms: 1 });
    const b = await createBookableTenant({ rooms: 1 });
    const aKey = (await createApiKey({ tenantId: a.tenantId, name: 'a', actor: TEST_ACTOR })).key;
    const mine = await book(a.tenantId, a.roomIds[0]!, 'api.guest@example.com');
    const theirs = await book(b.tenantId, b.roomIds[0]!, 'other.tenant@example.com');
    const call = (method: 'GET' | 'POST', id: string) =>
      (method === 'GET' ? listRoute : resendRoute)(
        new Request(`http://t/api/v1/reservations/${id}/messages`, {
          method,
          headers: { authorization: `Bearer ${aKey}`, 'content-type': 'application/json' },
          body: method === 'POST' ? JSON.stringify({ kind: 'key_link' }) : undefined,
        }),
        { params: Promise.resolve({ id }) },
      );

    for (const method of ['GET', 'POST'] as const) {
      const response = await call(method, theirs.id);
      expect({ method, status: response.status, code: (await response.json()).error?.code }).toEqual({
        method,
        status: 404,
        code: 'not_found',
      });
    }
    expect(await messagesOf(b.tenantId)).toHaveLength(1);

    const list = await call('GET', mine.id);
    expect(list.status).toBe(200);
    expect((await list.json()).data).toMatchObject([
      { kind: 'key_link', channel: 'email', to: 'api.guest@example.com', status: 'queued', attempts: 0, sentAt: null },
    ]);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await call('POST', mine.id)).status);
    expect(statuses).toEqual([202, 202, 202, 429]);
    const limited = await call('POST', mine.id);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const rows = await messagesOf(a.tenantId);
    expect(rows.map((m) => m.occasion.replace(/[0-9a-f-]{36}$/, 'x'))).toEqual([
      'booking',
      'resend:x',
      'resend:x',
      'resend:x',
    ]);
    const audit = await admin.query(
      `select count(*)::int as n from audit_events where tenant_id = $1 and action = 'message.resent' and subject_id = $2`,
      [a.tenantId, mine.id],
    );
    expect(audit.rows[0].n).toBe(3);
    await drain(a.tenantId);
    expect(mailTo('api.guest@example.com')).toHaveLength(4);
  });

  it('answers 409 for a guest without an email, and 400 for another kind', async () => {
    const t = await createBookableTenant({ rooms: 1 });
    const key = (await createApiKey({ tenantId: t.tenantId, name: 'k', actor: TEST_ACTOR })).key;
    const booked = await book(t.tenantId, t.roomIds[0]!, null);
    const post = (body: unknown) =>
      resendRoute(
        new Request(`http://t/api/v1/reservations/${booked.id}/messages`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
        { params: Promise.resolve({ id: booked.id }) },
      );
    expect((await post({ kind: 'stay_changed' })).status).toBe(400);
    const refused = await post({ kind: 'key_link' });
    expect({ status: refused.status, code: (await refused.json()).error.code }).toEqual({
      status: 409,
      code: 'reservation_not_ready',
    });
    expect(await messagesOf(t.tenantId)).toEqual([]);
  });
});

describe('deleting the guest', () => {
  it('erases their address from every message and stops a message not yet sent', async () => {
    const t = await createBookableTenant({ rooms: 1 });
    const startsAt = new Date(Date.now() + 30 * 3_600_000);
    const group = await createBookingGroup({
      tenantId: t.tenantId,
      actor: TEST_ACTOR,
      guest: { name: 'Erase Me', email: 'erase.me@example.com' },
      source: 'desk',
      reservations: [{ roomId: t.roomIds[0]!, startsAt, endsAt: new Date(startsAt.getTime() + 86_400_000) }],
    });
    await deleteGuest({ tenantId: t.tenantId, guestId: group.guestId, actor: TEST_ACTOR });
    const { rows } = await admin.query(
      `select count(*)::int as n from messages m where m.tenant_id = $1 and row_to_json(m)::text ilike '%erase.me%'`,
      [t.tenantId],
    );
    expect(rows[0].n).toBe(0);
    expect(await messagesOf(t.tenantId)).toMatchObject([
      { to_address: null, status: 'skipped', last_error: 'guest_deleted' },
    ]);
    await drain(t.tenantId);
    expect(mailTo('erase.me@example.com')).toHaveLength(0);
  });
});

describe('incidents', () => {
  it('email every active manager once when an incident opens and once at 5 and 20 occurrences', async () => {
    const t = await createBookableTenant({ rooms: 1 });
    await admin.query(`update facilities set default_language = 'ja' where id = $1`, [t.facilityId]);
    const users = await admin.query<{ id: string }>(
      `insert into users (email, password_hash) values ($1, 'x'), ($2, 'x'), ($3, 'x'), ($4, 'x') returning id`,
      ['boss.one@example.com', 'boss.two@example.com', 'clerk@example.com', 'gone.boss@example.com'],
    );
    const [one, two, clerk, gone] = users.rows.map((r) => r.id);
    await admin.query(
      `insert into memberships (tenant_id, user_id, role, deactivated_at) values
        ($1, $2, 'manager', null), ($1, $3, 'manager', null), ($1, $4, 'front_desk', null), ($1, $5, 'manager', now())`,
      [t.tenantId, one, two, clerk, gone],
    );
    const { recordSourceFailure } = await import('../incidents/incidents');
    const { asService } = await import('../db/tx');
    for (let i = 0; i < 21; i++) {
      await asService({ tenantId: t.tenantId }, (tx) =>
        recordSourceFailure(tx, {
          tenantId: t.tenantId,
          source: 'calendly',
          label: 'Calendly',
          reason: 'boom',
          eventId: randomUUID(),
        }),
      );
    }
    await drain(t.tenantId);
    const rows = await messagesOf(t.tenantId);
    expect(rows.map((m) => `${m.kind}:${m.occasion.replace(/:[0-9a-f-]{36}$/, '')}:${m.to_address}`).sort()).toEqual(
      [1, 5, 20]
        .flatMap((level) =>
          ['boss.one@example.com', 'boss.two@example.com'].map(
            (to) =>
              `${level === 1 ? 'incident_opened' : 'incident_raised'}:incident:${rows[0].occasion.split(':')[1]}:level:${level}:${to}`,
          ),
        )
        .sort(),
    );
    expect(mailTo('boss.one@example.com')).toHaveLength(3);
    expect(mailTo('clerk@example.com')).toHaveLength(0);
    expect(mailTo('gone.boss@example.com')).toHaveLength(0);
    expect(mailTo('boss.two@example.com').map((m) => m.parsed.subject)).toContain(
      'インシデント拡大（20回）：Calendly webhooks have failed 20 times in a row (last: boom).',
    );
  });
});
