import { z } from 'zod';
import type { Actor } from '../audit/actor';
import { asService, runStatements, sqlLiteral, statement } from '../db/tx';
import { checkBackupNeeded } from '../keys/backup-codes';
import { toGuestKeyView, type KeyView } from '../keys/key-view';
import { logger } from '../log/logger';
import { requireGuestStay } from './get-guest-key';
import { guestHelpLimit } from './guest-rate-limits';

/** `POST /api/guest/{token}/messages`: what a guest writes to the desk (its words are never logged). */
export const ZGuestMessageBodySchema = z.strictObject({
  body: z.string().trim().min(1, 'Write a message.').max(2000, 'A message is at most 2000 characters.'),
});

export type GuestMessageSent = { id: string; createdAt: string };

export type CodeProblemReply = { reported: true; backup: KeyView | null };

/**
 * The live stay a guest link names, its help rate limit counted in the same round trip: `not_found`
 * for an unknown, rotated or expired link, a deleted guest's, or a stay that ended (the thank-you page
 * shows the property's phone and email instead); `rate_limited` past the limit.
 */
function liveStayOf(token: string, address: string) {
  return requireGuestStay(token, guestHelpLimit(token, address));
}

/**
 * A guest's message to the desk: stored (`guest_messages`), on the reservation's timeline
 * (`guest.message_sent`, naming the message, not its words) and on the desk's day until read.
 */
export async function postGuestMessage(input: {
  token: string;
  clientAddress: string;
  body: string;
}): Promise<GuestMessageSent> {
  const { stay } = await liveStayOf(input.token, input.clientAddress);
  const { tenantId, reservationId } = stay;
  const [rows] = await runStatements({ role: 'app_service', tenantId }, [
    statement<{ id: string; created_at: Date }>(
      `select id, created_at from app_guest_post_message(${sqlLiteral(tenantId, 'uuid')},
        ${sqlLiteral(reservationId, 'uuid')}, ${sqlLiteral(input.body, 'text')})`,
    ),
  ]);
  const message = rows[0]!;
  logger.info({ tenantId, reservationId, guestMessageId: message.id }, 'guest message to the desk');
  return { id: message.id, createdAt: message.created_at.toISOString() };
}

const GUEST_LINK = (reservationId: string): Actor => ({ type: 'guest', id: reservationId, label: 'guest link' });

/**
 * "My code does not work": the desk is told at once (a high-priority guest message on its day, an
 * incident whose opening mails the managers), once per five minutes however often the guest taps;
 * where the door's lock keeps a pool of backup codes, the answer carries one standing in for the key
 * (the same one on every tap while it lives). `backup` is null where there is no pool, the room has
 * several doors, or the stay has no live key.
 */
export async function reportCodeProblem(input: { token: string; clientAddress: string }): Promise<CodeProblemReply> {
  const { stay, keys } = await liveStayOf(input.token, input.clientAddress);
  const { tenantId, reservationId } = stay;
  const [rows] = await runStatements({ role: 'app_service', tenantId }, [
    statement<{ message_id: string; created: boolean; backup_key_id: string | null }>(
      `select message_id, created, backup_key_id from app_report_code_problem(${sqlLiteral(tenantId, 'uuid')},
        ${sqlLiteral(reservationId, 'uuid')})`,
    ),
  ]);
  const report = rows[0]!;
  logger.warn(
    { tenantId, reservationId, guestMessageId: report.message_id, repeated: !report.created },
    'guest reports their code does not work',
  );
  const backup = await backupFor(tenantId, reservationId, keys, report.message_id);
  return { reported: true, backup };
}

/**
 * The backup code for the stay's live key: the one standing in already, else one pulled from the
 * lock's pool now (the provider is asked outside any transaction; `key.backup_issued` says why).
 */
async function backupFor(
  tenantId: string,
  reservationId: string,
  keys: { id: string; kind: string; status: string; createdAt: Date }[],
  messageId: string,
): Promise<KeyView | null> {
  const own = keys.filter((k) => k.kind === 'guest' && (k.status === 'active' || k.status === 'pre_issued'));
  const key = own.find((k) => k.status === 'active') ?? own[0];
  if (!key) return null;
  const standing = () =>
    asService({ tenantId }, (tx) =>
      tx.accessKey.findFirst({
        where: { tenantId, backupFor: key.id, kind: 'backup', status: { in: ['pre_issued', 'active'] } },
        orderBy: { createdAt: 'desc' },
      }),
    );
  let backup = await standing();
  if (!backup) {
    const outcome = await checkBackupNeeded({ tenantId, keyId: key.id }, GUEST_LINK(reservationId), {
      evenIfSet: true,
    }).catch((error: unknown) => {
      // A provider that cannot be reached now: the desk has the report; the guest is told to call.
      logger.warn({ err: error, tenantId, keyId: key.id }, 'no backup code for a guest report');
      return null;
    });
    if (outcome?.kind === 'issued' || outcome?.kind === 'not_needed') backup = await standing();
  }
  if (!backup) return null;
  await asService({ tenantId }, (tx) =>
    tx.guestMessage.updateMany({
      where: { tenantId, id: messageId, backupKeyId: null },
      data: { backupKeyId: backup.id },
    }),
  );
  const view = toGuestKeyView(backup);
  return view.pin === null ? null : view;
}
