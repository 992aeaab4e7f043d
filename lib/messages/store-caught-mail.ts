import { asService, effectStatement, runInTransaction, sqlLiteral, statement } from '../db/tx';
import type { ParsedMail } from 'mailparser';
import { MESSAGE_ID_HEADER } from './send-message';
import { TEST_MAIL_HEADER } from './send-test-mail';

/** A mail as the local mail catcher (tooling/mail-catcher) received it, parsed. */
export type CaughtMessage = { parsed: ParsedMail; envelope: { from: string; to: string[] }; size: number };

const MESSAGE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Files a caught mail under its message's tenant (by the X-UnlockOS-Message-Id header), so a
 * manager sees only their tenant's mail. Account mail (an invitation's or a reset's link: a person's,
 * not a tenant's) goes to a mailbox no tenant can read, only the operator (`cli account-mail`). A
 * mail naming no known message is refused (550): the catcher is shared by every tenant of the
 * install and keeps nothing it cannot attribute.
 */
export async function storeCaughtMail(mail: CaughtMessage): Promise<void> {
  const header = mail.parsed.headers.get(MESSAGE_ID_HEADER.toLowerCase());
  const messageId = typeof header === 'string' ? header.trim() : '';
  const refuse = () => Object.assign(new Error('Unknown message'), { responseCode: 550 });
  const test = mail.parsed.headers.get(TEST_MAIL_HEADER.toLowerCase());
  if (!MESSAGE_ID.test(messageId) && typeof test === 'string') return storeTestMail(mail, test.trim(), refuse);
  if (!MESSAGE_ID.test(messageId)) throw refuse();
  const [owners] = await asService((tx) =>
    runInTransaction(tx, [
      statement<{
        tenant_id: string | null;
      }>(`select tenant_id from messages where id = ${sqlLiteral(messageId, 'uuid')}
      union all select null from account_messages where id = ${sqlLiteral(messageId, 'uuid')}`),
    ]),
  );
  if (owners.length !== 1) throw refuse();
  const tenantId = owners[0]!.tenant_id;
  await fileUnder(tenantId, messageId, mail);
}

/**
 * A manager's test mail (lib/messages/send-test-mail.ts): accepted when its tenant asked for that test
 * lately, and kept nowhere (it belongs to no message; the page already says the server took it).
 */
async function storeTestMail(mail: CaughtMessage, header: string, refuse: () => Error): Promise<void> {
  const [tenantId, testId] = header.split(':');
  if (!tenantId || !testId || !MESSAGE_ID.test(tenantId) || !MESSAGE_ID.test(testId)) throw refuse();
  const [asked] = await asService({ tenantId }, (tx) =>
    runInTransaction(tx, [
      statement<{ n: number }>(`select count(*)::int as n from audit_events
        where tenant_id = ${sqlLiteral(tenantId, 'uuid')} and action = 'mail.test_requested'
          and occurred_at > now() - interval '1 hour' and metadata->>'testId' = ${sqlLiteral(testId, 'text')}`),
    ]),
  );
  if (asked[0]?.n !== 1) throw refuse();
}

async function fileUnder(tenantId: string | null, messageId: string, mail: CaughtMessage): Promise<void> {
  const { parsed } = mail;
  if (tenantId === null) {
    await asService((tx) =>
      runInTransaction(tx, [
        effectStatement(`insert into caught_account_mail (message_id, mail_from, rcpt_to, subject, text_body, html_body, size_bytes)
        values (${sqlLiteral(messageId, 'uuid')}, ${sqlLiteral(mail.envelope.from, 'text')},
          ${sqlLiteral(mail.envelope.to.join(', '), 'text')}, ${sqlLiteral(parsed.subject ?? '', 'text')},
          ${sqlLiteral(parsed.text ?? '', 'text')},
          ${sqlLiteral(typeof parsed.html === 'string' ? parsed.html : '', 'text')},
          ${sqlLiteral(mail.size, 'int')})`),
      ]),
    );
    return;
  }
  const attachments = parsed.attachments.map((a) => ({
    filename: a.filename ?? '',
    contentType: a.contentType,
    size: a.size,
  }));
  await asService({ tenantId }, (tx) =>
    runInTransaction(tx, [
      effectStatement(`insert into caught_mail (tenant_id, message_id, mail_from, rcpt_to, subject, text_body, html_body, attachments, size_bytes)
      values (${sqlLiteral(tenantId, 'uuid')}, ${sqlLiteral(messageId, 'uuid')},
        ${sqlLiteral(mail.envelope.from, 'text')}, ${sqlLiteral(mail.envelope.to.join(', '), 'text')},
        ${sqlLiteral(parsed.subject ?? '', 'text')},
        ${sqlLiteral(parsed.text ?? '', 'text')},
        ${sqlLiteral(typeof parsed.html === 'string' ? parsed.html : '', 'text')},
        ${sqlLiteral(JSON.stringify(attachments), 'jsonb')}, ${sqlLiteral(mail.size, 'int')})`),
    ]),
  );
}
