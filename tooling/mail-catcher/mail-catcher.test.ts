import nodemailer from 'nodemailer';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBookingGroup } from '../../lib/bookings/create-booking-group';
import { adminClient, createBookableTenant, TEST_ACTOR } from '../testing/fixtures';
import { listCaughtMail } from '../../lib/messages/list-caught-mail';
import { startMailCatcher, type MailCatcher } from './mail-catcher';
import { sendMessage } from '../../lib/messages/send-message';
import { storeCaughtMail } from '../../lib/messages/store-caught-mail';

// The local mail catcher npm start runs without SMTP_URL, shared by every tenant of the install:
// only its own login may deliver, each mail is filed under its message's tenant, and a mail that
// names no message is refused.

const LOGIN = { user: 'unlockos', pass: 'catcher-test-password' };
let admin: pg.Client;
let catcher: MailCatcher;

beforeAll(async () => {
  admin = await adminClient();
  catcher = await startMailCatcher({ auth: LOGIN, onMail: storeCaughtMail });
  process.env.SMTP_URL = `smtp://${LOGIN.user}:${LOGIN.pass}@127.0.0.1:${catcher.port}`;
});
afterAll(async () => {
  delete process.env.SMTP_URL;
  await catcher.close();
  await admin.end();
});

async function bookedMessage(email: string) {
  const t = await createBookableTenant({ rooms: 1 });
  const startsAt = new Date(Date.now() + 30 * 3_600_000);
  await createBookingGroup({
    tenantId: t.tenantId,
    actor: TEST_ACTOR,
    guest: { name: 'Caught Guest', email },
    source: 'api',
    reservations: [{ roomId: t.roomIds[0]!, startsAt, endsAt: new Date(startsAt.getTime() + 86_400_000) }],
  });
  const { rows } = await admin.query<{ id: string }>(`select id from messages where tenant_id = $1`, [t.tenantId]);
  return { tenantId: t.tenantId, messageId: rows[0]!.id };
}

describe('the mail catcher', () => {
  it('files each sent mail under its own tenant only', async () => {
    const a = await bookedMessage('caught.a@example.com');
    const b = await bookedMessage('caught.b@example.com');
    expect(await sendMessage({ ...a, attempt: 1, maxAttempts: 6 })).toBe('sent');
    const mailOfA = await listCaughtMail({ tenantId: a.tenantId });
    expect(mailOfA).toHaveLength(1);
    expect(mailOfA[0]).toMatchObject({ messageId: a.messageId, to: 'caught.a@example.com' });
    expect(mailOfA[0]!.text).toContain('/k/');
    expect(mailOfA[0]!.attachments).toEqual([expect.objectContaining({ filename: 'stay.ics' })]);
    expect(await listCaughtMail({ tenantId: b.tenantId })).toEqual([]);
  });

  it('refuses a mail naming no message, or another sender without its login, and keeps nothing', async () => {
    const { rows: before } = await admin.query(`select count(*)::int as n from caught_mail`);
    const port = catcher.port;
    const stranger = nodemailer.createTransport({ url: `smtp://127.0.0.1:${port}` });
    await expect(
      stranger.sendMail({ from: 'x@example.com', to: 'y@example.com', subject: 'no login', text: 'hi' }),
    ).rejects.toThrow();
    const wrong = nodemailer.createTransport({ url: `smtp://${LOGIN.user}:wrong@127.0.0.1:${port}` });
    await expect(wrong.sendMail({ from: 'x@example.com', to: 'y@example.com', text: 'hi' })).rejects.toMatchObject({
      responseCode: 535,
    });
    const unknown = nodemailer.createTransport({ url: process.env.SMTP_URL });
    await expect(
      unknown.sendMail({
        from: 'x@example.com',
        to: 'y@example.com',
        text: 'forged',
        headers: { 'X-UnlockOS-Message-Id': '00000000-0000-4000-8000-000000000000' },
      }),
    ).rejects.toMatchObject({ responseCode: 550 });
    const { rows: after } = await admin.query(`select count(*)::int as n from caught_mail`);
    expect(after[0].n).toBe(before[0].n);
  });
});
