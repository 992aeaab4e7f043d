import { randomUUID } from 'node:crypto';
import net from 'node:net';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createBookableTenant } from '../../tooling/testing/fixtures';
import { startMailCatcher, type CaughtMessage, type MailCatcher } from '../../tooling/mail-catcher/mail-catcher';
import { sendTestMail, TEST_MAIL_LIMITS } from './send-test-mail';

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
    expect(await sendTestMail({ tenantId, actor: member(), to, locale: 'ja' })).toEqual({ ok: true, to });
    const mail = inbox.find((m) => m.envelope.to.includes(to));
    expect(mail?.parsed.subject).toBe('UnlockOSからのテストメール');
    expect(mail?.parsed.text).toContain('Mia Manager');
    const rows = await audits(tenantId);
    expect(rows).toEqual([
      { actor_label: 'Mia Manager', metadata: { ok: true, domain: 'example.test', problem: null } },
    ]);
    expect(JSON.stringify(rows)).not.toContain(to);
  });

  it('says in words why it did not go: refused sign-in, nothing listening, the server refusing the mail', async () => {
    const { tenantId } = await createBookableTenant({ rooms: 1, lockDevices: false });
    const actor = member();
    const to = 'owner@example.test';

    process.env.SMTP_URL = `smtp://mailer:wrong@127.0.0.1:${guarded.port}`;
    const auth = await sendTestMail({ tenantId, actor, to, locale: 'en' });
    expect(auth).toMatchObject({ ok: false, problem: 'auth' });
    expect(!auth.ok && auth.answer).toMatch(/535/);

    process.env.SMTP_URL = `smtp://127.0.0.1:${await closedPort()}`;
    expect(await sendTestMail({ tenantId, actor, to, locale: 'en' })).toMatchObject({
      ok: false,
      problem: 'refused',
      answer: expect.stringMatching(/ECONNREFUSED/),
    });

    process.env.SMTP_URL = `smtp://127.0.0.1:${open.port}`;
    refuse = 451;
    expect(await sendTestMail({ tenantId, actor, to, locale: 'en' })).toMatchObject({
      ok: false,
      problem: 'other',
      answer: expect.stringMatching(/^451: .*Mailbox unavailable/),
    });
    expect((await audits(tenantId)).map((r) => r.metadata.problem)).toEqual(['auth', 'refused', 'other']);
  });

  it('is rate limited per member (rate_limited), and a refused try is not audited', async () => {
    const { tenantId } = await createBookableTenant({ rooms: 1, lockDevices: false });
    process.env.SMTP_URL = `smtp://127.0.0.1:${open.port}`;
    const actor = member();
    for (let i = 0; i < TEST_MAIL_LIMITS.perMember; i++)
      expect((await sendTestMail({ tenantId, actor, to: 'a@example.test', locale: 'en' })).ok).toBe(true);
    await expect(sendTestMail({ tenantId, actor, to: 'a@example.test', locale: 'en' })).rejects.toMatchObject({
      code: 'rate_limited',
    });
    expect(await audits(tenantId)).toHaveLength(TEST_MAIL_LIMITS.perMember);
  });
});
