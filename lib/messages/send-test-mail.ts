import type { Actor } from '../audit/actor';
import { writeAuditEvent } from '../audit/write-audit-event';
import { asService } from '../db/tx';
import { translator } from '../i18n/locale';
import type { Locale } from '../i18n/locales';
import { rateLimitHits } from '../ratelimit/rate-limit';
import { runStatements } from '../db/tx';
import { describeSendError, mailFrom, mailTransport } from './mail-transport';

/** Why a test mail did not go, in the words the page has for each (messages `mailbox.test.problem.*`). */
export type TestMailProblem = 'host' | 'refused' | 'auth' | 'timeout' | 'recipient' | 'tls' | 'other';

export type TestMailResult =
  { ok: true; to: string } | { ok: false; to: string; problem: TestMailProblem; answer: string };

/** Test mails per tenant and per member (a mail server is nobody's to flood from the settings page). */
export const TEST_MAIL_LIMITS = { perMember: 5, perTenant: 20, windowSeconds: 600 } as const;

/** What nodemailer's error says went wrong, as one of the page's problems. */
export function testMailProblem(error: unknown): TestMailProblem {
  const e = error as { code?: string; responseCode?: number; message?: string };
  const text = `${e.code ?? ''} ${e.message ?? ''}`;
  if (e.code === 'EAUTH' || e.responseCode === 535 || e.responseCode === 534) return 'auth';
  if (e.code === 'ETIMEDOUT' || /timed? ?out/i.test(text)) return 'timeout';
  if (/ECONNREFUSED/.test(text)) return 'refused';
  if (e.code === 'EDNS' || /ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH/.test(text)) return 'host';
  if (e.code === 'ETLS' || /TLS|SSL|certificate/i.test(text)) return 'tls';
  if (e.code === 'EENVELOPE' || e.responseCode === 550 || e.responseCode === 553) return 'recipient';
  if (e.code === 'ESOCKET' || e.code === 'ECONNECTION') return 'host';
  return 'other';
}

/**
 * Sends one test mail through the install's SMTP transport (the one guests' mails take; the mail
 * catcher in local mode) and says whether the server accepted it, with its answer when it did not.
 * Rate limited per member and tenant (`rate_limited`); audited `mail.test_sent` with the outcome and
 * the address's domain only.
 */
export async function sendTestMail(input: {
  tenantId: string;
  actor: Actor & { id: string };
  to: string;
  locale: Locale;
}): Promise<TestMailResult> {
  const { tenantId, actor, to, locale } = input;
  await runStatements({ role: 'app_service', tenantId }, [
    rateLimitHits([
      {
        bucket: `test-mail:member:${actor.id}`,
        windowSeconds: TEST_MAIL_LIMITS.windowSeconds,
        limit: TEST_MAIL_LIMITS.perMember,
      },
      {
        bucket: `test-mail:tenant:${tenantId}`,
        windowSeconds: TEST_MAIL_LIMITS.windowSeconds,
        limit: TEST_MAIL_LIMITS.perTenant,
      },
    ]),
  ]);
  const t = translator(locale);
  let result: TestMailResult;
  const transport = mailTransport();
  if (!transport) result = { ok: false, to, problem: 'host', answer: 'SMTP_URL is not set' };
  else {
    try {
      await transport.sendMail({
        from: mailFrom(),
        to,
        subject: t('mailbox.test.subject', { app: 'UnlockOS' }),
        text: t('mailbox.test.body', { app: 'UnlockOS', who: actor.label }),
      });
      result = { ok: true, to };
    } catch (error) {
      result = { ok: false, to, problem: testMailProblem(error), answer: describeSendError(error) };
    }
  }
  await asService({ tenantId }, (tx) =>
    writeAuditEvent(tx, {
      tenantId,
      actor,
      action: 'mail.test_sent',
      subject: { type: 'tenant' },
      metadata: { ok: result.ok, domain: to.split('@').pop() ?? '', problem: result.ok ? null : result.problem },
    }),
  );
  return result;
}
