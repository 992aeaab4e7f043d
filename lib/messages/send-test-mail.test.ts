import { randomUUID } from 'node:crypto';
import net from 'node:net';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createBookableTenant } from '../../tooling/testing/fixtures';
import { startMailCatcher, type CaughtMessage, type MailCatcher } from '../../tooling/mail-catcher/mail-catcher';
import { storeCaughtMail } from './store-caught-mail';
import { deliverTestMail, sendTestMail, TEST_MAIL_LIMITS, ZTestMailJobSchema } from './send-test-mail';

// A real SMTP server in process (smtp-server, as npm start's mail catcher), one requiring a sign-in.
let admin: pg.Client;
let open: MailCatcher;
let guarded: MailCatcher;
const inbox: CaughtMessage[] = [];
let refuse: number | null = null;
const savedUrl = process.env.SMTP_URL;

beforeAll(async () => {
  admin = await adminClient();
  open = await startMailCatcher({
    onMail: async (mail) => {
      if (refuse) throw Object.assign(new Error('Mailbox unavailable'), { responseCode: refuse });
      inbox.push(mail);
    },
  });
  guarded = await startMailCatcher({ auth: { user: 'mailer', pass: 'right' }, onMail: async () => {} });
});
afterEach(() => {
  refuse = null;
  process.env.SMTP_URL = savedUrl;
});
afterAll(async () => {
  await Promise.all([open.close(), guarded.close(), admin.end()]);
});

const member = () => ({ type: 'user' as const, id: randomUUID(), label: 'Mia Manager' });

/** The worker's side: what a `send_test_mail` job does, for a job written by hand. */
const job = (tenantId: string, to: string, locale: 'en' | 'ja' = 'en', actor = member()) =>
  deliverTestMail({ tenantId, testId: randomUUID(), to, locale, actor: { id: actor.id, label: actor.label } });

/** Stands in for a worker: runs the tenant's queued test-mail jobs once they appear. */
async function runQueuedTestMails(tenantId: string): Promise<number> {
  for (let i = 0; i < 50; i++) {
    const { rows } = await admin.query(
      `delete from graphile_worker._private_jobs j using graphile_worker._private_tasks t
        where t.id = j.task_id and t.identifier = 'send_test_mail' and j.payload->>'tenantId' = $1
        returning j.payload`,
      [tenantId],
    );
    for (const row of rows) await deliverTestMail(ZTestMailJobSchema.parse(row.payload));
    if (rows.length > 0) return rows.length;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return 0;
}

async function audits(tenantId: string) {
  const { rows } = await admin.query(
    `select actor_label, metadata from audit_events where tenant_id = $1 and action = 'mail.test_sent' order by occurred_at`,
    [tenantId],
  );
  return rows;
}

/** A port nothing listens on (taken, then freed). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('a test mail', () => {
  it('goes through the configured SMTP server, in the manager’s language, audited with the domain only', async () => {
    const { tenantId } = await createBookableTenant({ rooms: 1, lockDevices: false });
    process.env.SMTP_URL = `smtp://127.0.0.1:${open.port}`;
    const to = `owner-${randomUUID()}@example.test`;
    // The page's side hands the mail to a worker and waits for its answer.
    const [answer, ran] = await Promise.all([
      sendTestMail({ tenantId, actor: member(), to, locale: 'ja' }),
      runQueuedTestMails(tenantId),
    ]);
    expect(ran).toBe(1);
    expect(answer).toEqual({ ok: true, to });
    const mail = inbox.find((m) => m.envelope.to.includes(to));
    expect(mail?.parsed.subject).toBe('UnlockOSからのテストメール');
    expect(mail?.parsed.text).toContain('Mia Manager');
    const rows = await audits(tenantId);
    expect(rows).toEqual([
      {
        actor_label: 'Mia Manager',
        metadata: { testId: expect.any(String), ok: true, domain: 'example.test', problem: null, answer: null },
      },
    ]);
    expect(JSON.stringify(rows)).not.toContain(to);

    // The local mail catcher takes it, the tenant having asked for that test (and keeps it nowhere)…
    await storeCaughtMail(mail!);
    const caught = await admin.query(`select count(*)::int as n from caught_mail where tenant_id = $1`, [tenantId]);
    expect(caught.rows[0].n).toBe(0);
    // …and refuses one naming a test nobody asked for.
    const forged = structuredClone(mail!);
    forged.parsed.headers = new Map([['x-unlockos-test-mail', `${tenantId}:${randomUUID()}`]]);
    await expect(storeCaughtMail(forged)).rejects.toMatchObject({ responseCode: 550 });
  });

  it('says in words why it did not go: refused sign-in, nothing listening, the server refusing the mail', async () => {
    const { tenantId } = await createBookableTenant({ rooms: 1, lockDevices: false });
    const to = 'owner@example.test';

    process.env.SMTP_URL = `smtp://mailer:wrong@127.0.0.1:${guarded.port}`;
    const auth = await job(tenantId, to);
    expect(auth).toMatchObject({ ok: false, problem: 'auth' });
    expect(!auth.ok && auth.answer).toMatch(/535/);

    process.env.SMTP_URL = `smtp://127.0.0.1:${await closedPort()}`;
    expect(await job(tenantId, to)).toMatchObject({
      ok: false,
      problem: 'refused',
      answer: expect.stringMatching(/ECONNREFUSED/),
    });

    process.env.SMTP_URL = `smtp://127.0.0.1:${open.port}`;
    refuse = 451;
    expect(await job(tenantId, to)).toMatchObject({
      ok: false,
      problem: 'other',
      answer: expect.stringMatching(/^451: .*Mailbox unavailable/),
    });
    expect((await audits(tenantId)).map((r) => r.metadata.problem)).toEqual(['auth', 'refused', 'other']);
  });

  it('says when no worker answered, and is rate limited per member (rate_limited, nothing queued)', async () => {
    const { tenantId } = await createBookableTenant({ rooms: 1, lockDevices: false });
    const actor = member();
    const queued = async () =>
      (
        await admin.query(
          `select count(*)::int as n from graphile_worker._private_jobs j join graphile_worker._private_tasks t
            on t.id = j.task_id where t.identifier = 'send_test_mail' and j.payload->>'tenantId' = $1`,
          [tenantId],
        )
      ).rows[0].n;
    for (let i = 0; i < TEST_MAIL_LIMITS.perMember; i++)
      expect(await sendTestMail({ tenantId, actor, to: 'a@example.test', locale: 'en', waitMs: 0 })).toMatchObject({
        ok: false,
        problem: 'no_worker',
      });
    await expect(
      sendTestMail({ tenantId, actor, to: 'a@example.test', locale: 'en', waitMs: 0 }),
    ).rejects.toMatchObject({
      code: 'rate_limited',
    });
    expect(await queued()).toBe(TEST_MAIL_LIMITS.perMember);
  });

  it('keeps the server’s answer without the address, and gives it back to the page whole', async () => {
    const { tenantId } = await createBookableTenant({ rooms: 1, lockDevices: false });
    process.env.SMTP_URL = `smtp://127.0.0.1:${open.port}`;
    refuse = 550;
    const to = `nobody-${randomUUID()}@example.test`;
    const [answer] = await Promise.all([
      sendTestMail({ tenantId, actor: member(), to, locale: 'en' }),
      runQueuedTestMails(tenantId),
    ]);
    expect(answer).toMatchObject({ ok: false, problem: 'recipient' });
    const rows = await audits(tenantId);
    expect(rows[0].metadata).toMatchObject({ ok: false, domain: 'example.test', problem: 'recipient' });
    expect(JSON.stringify(rows)).not.toContain(to);
  });
});
