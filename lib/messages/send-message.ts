import { asService, effectStatement, runInTransaction, sqlLiteral, statement } from '../db/tx';
import { logger } from '../log/logger';
import { composeMessage, type ComposedMail, type MessageRow } from './compose-message';
import { describeSendError, mailFrom, mailTransport } from './mail-transport';

/** The header the local mail catcher files a caught mail under (its tenant comes from the message). */
export const MESSAGE_ID_HEADER = 'X-UnlockOS-Message-Id';

/**
 * A claim older than this is a worker that died mid-send (the reaper has handed its job back):
 * longer than the transport's connection, greeting and socket timeouts together.
 */
const CLAIM_STALE_MS = 90_000;

export type SendOutcome = 'sent' | 'skipped' | 'done' | 'failed';

/**
 * The worker's `send_message`: sends one message at most once per claim. The row is claimed
 * (`sending`, attempts + 1) and committed before SMTP is spoken to, and marked `sent` after the
 * server accepted it, so a retried, duplicated or replayed job finds it sent and does nothing. The one
 * window left is a worker that dies after the server accepted the mail and before `sent` is committed:
 * the claim goes stale and the mail is sent again, with the same Message-ID (at least once, there
 * only). A failure is retried by graphile-worker (backoff) and kept as `failed` after the last attempt.
 */
export async function sendMessage(input: {
  tenantId: string;
  messageId: string;
  attempt: number;
  maxAttempts: number;
}): Promise<SendOutcome> {
  const { tenantId, messageId } = input;
  const claimed = await asService({ tenantId }, async (tx) => {
    const [rows] = await runInTransaction(tx, [
      statement<MessageRow>(`select id, tenant_id, reservation_id, incident_id, kind::text,
        occasion, to_address, locale, status::text, claimed_at
      from messages where tenant_id = ${sqlLiteral(tenantId, 'uuid')}
        and id = ${sqlLiteral(messageId, 'uuid')} for update`),
    ]);
    const message = rows[0];
    if (claimDecision(message) === 'done') return { outcome: 'done' as const };
    const composed = await composeMessage(tx, message!);
    if ('skip' in composed) {
      await runInTransaction(tx, [
        effectStatement(`update messages set status = 'skipped', last_error = ${sqlLiteral(composed.skip, 'text')}, claimed_at = null, updated_at = now()
        where tenant_id = ${sqlLiteral(tenantId, 'uuid')} and id = ${sqlLiteral(messageId, 'uuid')}`),
      ]);
      return { outcome: 'skipped' as const };
    }
    await runInTransaction(tx, [
      effectStatement(`update messages set status = 'sending', claimed_at = now(), attempts = attempts + 1, updated_at = now()
      where tenant_id = ${sqlLiteral(tenantId, 'uuid')} and id = ${sqlLiteral(messageId, 'uuid')}`),
    ]);
    return { outcome: 'claimed' as const, message: message!, mail: composed.mail };
  });
  if (claimed.outcome !== 'claimed') return claimed.outcome;
  return deliverClaimed({
    ...input,
    mail: claimed.mail,
    log: { tenantId, messageId },
    sent: (providerId) =>
      asService({ tenantId }, async (tx) => {
        await runInTransaction(tx, [
          effectStatement(`update messages set status = 'sent', sent_at = now(), claimed_at = null, last_error = null,
            provider_message_id = ${sqlLiteral(providerId, 'text')}, updated_at = now()
          where tenant_id = ${sqlLiteral(tenantId, 'uuid')} and id = ${sqlLiteral(messageId, 'uuid')}`),
        ]);
        await runInTransaction(tx, [
          effectStatement(`select app_audit(${sqlLiteral(tenantId, 'uuid')}, 'system'::actor_type, null, 'mailer', 'message.sent',
            'message', ${sqlLiteral(messageId, 'uuid')}, null, null,
            ${sqlLiteral(JSON.stringify({ kind: claimed.message.kind, reservationId: claimed.message.reservation_id }), 'jsonb')})`),
        ]);
      }),
    unsent: (status, reason) =>
      asService({ tenantId }, (tx) =>
        runInTransaction(tx, [
          effectStatement(`update messages set status = ${sqlLiteral(status, 'message_status')}, last_error = ${sqlLiteral(reason, 'text')},
            claimed_at = null, updated_at = now()
          where tenant_id = ${sqlLiteral(tenantId, 'uuid')} and id = ${sqlLiteral(messageId, 'uuid')}`),
        ]),
      ),
  });
}

/**
 * What a job does with the outbox row it found (locked): nothing when it is gone or settled; wait
 * (throw, so graphile-worker retries later) while a fresh claim says another attempt is speaking to
 * the server; else claim it.
 */
export function claimDecision(row: { status: string; claimed_at: Date | null } | undefined): 'done' | 'claim' {
  if (!row || row.status === 'sent' || row.status === 'skipped' || row.status === 'failed') return 'done';
  if (row.status === 'sending' && row.claimed_at && Date.now() - row.claimed_at.getTime() < CLAIM_STALE_MS) {
    // Another attempt is speaking to the server right now: try again after it.
    throw new Error('message is being sent by another attempt');
  }
  return 'claim';
}

/**
 * Sends a claimed mail and records the outcome: `sent` after the server accepted it; on a failure,
 * back to `queued` (rethrown: graphile-worker retries with backoff) or, after the last attempt,
 * `failed` with the server's answer.
 */
export async function deliverClaimed(input: {
  messageId: string;
  attempt: number;
  maxAttempts: number;
  mail: ComposedMail;
  log: Record<string, unknown>;
  sent: (providerId: string) => Promise<unknown>;
  unsent: (status: 'queued' | 'failed', reason: string) => Promise<unknown>;
}): Promise<SendOutcome> {
  try {
    const providerId = await deliver(input.messageId, input.mail);
    await input.sent(providerId);
    return 'sent';
  } catch (error) {
    const last = input.attempt >= input.maxAttempts;
    const reason = describeSendError(error);
    await input.unsent(last ? 'failed' : 'queued', reason);
    logger.warn({ ...input.log, attempt: input.attempt, last, reason }, 'message not sent');
    if (last) return 'failed';
    throw error;
  }
}

async function deliver(messageId: string, mail: ComposedMail): Promise<string> {
  const transport = mailTransport();
  if (!transport) throw new Error('SMTP_URL is not set');
  const info = await transport.sendMail({
    from: mailFrom(),
    to: mail.to,
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    attachments: mail.attachments,
    // The same Message-ID on every attempt: a receiver that sees a repeat can tell it is one.
    messageId: `<${messageId}@unlockos>`,
    headers: { [MESSAGE_ID_HEADER]: messageId },
  });
  return String(info.messageId ?? '').slice(0, 300);
}
