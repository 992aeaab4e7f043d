import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Actor } from '../audit/actor';
import { writeAuditEvent } from '../audit/write-audit-event';
import { asService, effectStatement, runInTransaction, runStatements, sqlLiteral, statement } from '../db/tx';
import { translator } from '../i18n/locale';
import { LOCALES, type Locale } from '../i18n/locales';
import { rateLimitHits } from '../ratelimit/rate-limit';
import { describeSendError, mailFrom, mailTransport } from './mail-transport';

/** Why a test mail did not go, in the words the page has for each (messages `mailbox.test.problem.*`). */
export type TestMailProblem = 'host' | 'refused' | 'auth' | 'timeout' | 'recipient' | 'tls' | 'other' | 'no_worker';

export type TestMailResult =
  { ok: true; to: string } | { ok: false; to: string; problem: TestMailProblem; answer: string };

/** Names a test mail's tenant and test (`<tenant id>:<test id>`), for the local mail catcher to file it. */
export const TEST_MAIL_HEADER = 'X-UnlockOS-Test-Mail';

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

export const ZTestMailJobSchema = z.object({
  tenantId: z.uuid(),
  testId: z.uuid(),
  to: z.email(),
  locale: z.enum(LOCALES),
  actor: z.object({ id: z.string(), label: z.string() }),
});
export type TTestMailJob = z.infer<typeof ZTestMailJobSchema>;

/** The server's answer as the audit row keeps it: the address itself replaced, its domain being the metadata's. */
function redacted(answer: string, to: string): string {
  return answer.split(to).join('<address>').slice(0, 500);
}

/**
 * The worker's `send_test_mail`: one mail through the process's SMTP transport (the one guests' mails
 * take; the launcher's mail catcher in local mode), its outcome audited `mail.test_sent` under the test's
 * id — the address's domain only, and the server's answer with the address taken out.
 */
export async function deliverTestMail(job: TTestMailJob): Promise<TestMailResult> {
  const { tenantId, testId, to, locale, actor } = job;
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
        headers: { [TEST_MAIL_HEADER]: `${tenantId}:${testId}` },
      });
      result = { ok: true, to };
    } catch (error) {
      result = { ok: false, to, problem: testMailProblem(error), answer: describeSendError(error) };
    }
  }
  await asService({ tenantId }, (tx) =>
    writeAuditEvent(tx, {
      tenantId,
      actor: { type: 'user', id: actor.id, label: actor.label },
      action: 'mail.test_sent',
      subject: { type: 'tenant' },
      metadata: {
        testId,
        ok: result.ok,
        domain: to.split('@').pop() ?? '',
        problem: result.ok ? null : result.problem,
        answer: result.ok ? null : redacted(result.answer, to),
      },
    }),
  );
  return result;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * "Send test mail" (the mailbox page): rate limited per member and tenant (`rate_limited`), handed to
 * a worker — the processes that hold the SMTP credentials — and waited for up to `waitMs`; the
 * server's answer comes back with the address put back in. No worker answering in time is a result
 * of its own (`no_worker`): the mail may still go, and its audit row will say.
 */
export async function sendTestMail(input: {
  tenantId: string;
  actor: Actor & { id: string };
  to: string;
  locale: Locale;
  waitMs?: number;
}): Promise<TestMailResult> {
  const { tenantId, actor, to, locale } = input;
  const testId = randomUUID();
  const job: TTestMailJob = { tenantId, testId, to, locale, actor: { id: actor.id, label: actor.label } };
  // Counted first, on its own: a refused test queues nothing.
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
  await asService({ tenantId }, async (tx) => {
    // One attempt: a test says what happened now, it is not retried behind the manager's back.
    await runInTransaction(tx, [
      effectStatement(`select app_enqueue_job('send_test_mail', ${sqlLiteral(JSON.stringify(job), 'jsonb')},
        max_attempts => 1)`),
    ]);
    // Also what lets the local mail catcher take this mail (it keeps only mail it can attribute).
    await writeAuditEvent(tx, {
      tenantId,
      actor,
      action: 'mail.test_requested',
      subject: { type: 'tenant' },
      metadata: { testId, domain: to.split('@').pop() ?? '' },
    });
  });
  const deadline = Date.now() + (input.waitMs ?? 20_000);
  while (Date.now() < deadline) {
    await sleep(300);
    const [rows] = await runStatements({ role: 'app_service', tenantId }, [
      statement<{ ok: boolean; problem: TestMailProblem | null; answer: string | null }>(`
        select (metadata->>'ok')::boolean as ok, metadata->>'problem' as problem, metadata->>'answer' as answer
          from audit_events
         where tenant_id = ${sqlLiteral(tenantId, 'uuid')} and action = 'mail.test_sent'
           and occurred_at > now() - interval '10 minutes' and metadata->>'testId' = ${sqlLiteral(testId, 'text')}`),
    ]);
    const row = rows[0];
    if (row)
      return row.ok
        ? { ok: true, to }
        : { ok: false, to, problem: row.problem ?? 'other', answer: (row.answer ?? '').split('<address>').join(to) };
  }
  return { ok: false, to, problem: 'no_worker', answer: 'no worker answered in time' };
}
