'use server';

import { z } from 'zod';
import { completeCheckIn } from '@/lib/stays/complete-check-in';
import { issueBackupCode } from '@/lib/keys/backup-codes';
import { checkInLockProblems, type CheckInLockProblem } from '@/lib/locks/check-in-lock-problems';
import type { Translate } from '@/lib/i18n/locale';
import { getT } from '@/i18n/server';
import { revealPin } from '@/lib/keys/reveal-pin';
import { revokeKey } from '@/lib/keys/revoke-key';
import { rotateGuestLink } from '@/lib/guests/rotate-guest-link';
import { refuse, staffAction, type ActionState } from '@/app/_server/action';

// Each action declares its permission and input; staffAction does the rest (session, tenant from
// the session, actor, messages, the log line). The arrivals list and every reservation page under
// it are refreshed once an action has run.
const DESK = { path: '/desk', type: 'layout' } as const;

const REASON_MAX = 200;

/**
 * Completes the check-in of one reservation of the current tenant; the new PIN comes back to hand
 * over. `early=1` checks in before the check-in opens (audited; refused while the room is occupied).
 */
export const completeCheckInAction = staffAction(
  {
    name: 'checkIn',
    permission: 'checkin.complete',
    input: z.object({
      reservationId: z.uuid(),
      early: z.enum(['1']).optional(),
      lockProblemConfirmed: z.enum(['1']).optional(),
    }),
    echo: { reservationId: 'text' },
    revalidate: DESK,
  },
  async ({ input: { reservationId, early, lockProblemConfirmed }, tenantId, actor }) => {
    // A PIN that cannot reach the door: the desk is told first and checks in only once it confirms.
    if (!lockProblemConfirmed) {
      const problems = await checkInLockProblems({ tenantId, userId: actor.id, reservationId });
      if (problems.length > 0) {
        const t = await getT();
        return refuse('checkIn.lockProblem', {
          field: 'lockProblemConfirmed',
          vars: { problems: lockProblemWords(t, problems) },
        });
      }
    }
    const result = await completeCheckIn({ tenantId, reservationId, actor, early: early === '1' });
    return {
      reservationId,
      keyId: result.key.id,
      pin: result.key.pin,
      vendorSync: result.key.vendorSync,
      revokedCount: result.revokedKeyIds.length,
      revokedKeyIds: result.revokedKeyIds,
    };
  },
);
export type CheckInState = ActionState<
  {
    reservationId: string;
    keyId: string;
    pin: string | null;
    vendorSync: 'pending' | 'synced' | 'failed';
    revokedCount: number;
    revokedKeyIds: string[];
  },
  { reservationId: 'text' }
>;

/** The problems of a check-in's doors in words: "Gateway offline (Room 101 door), …". */
function lockProblemWords(t: Translate, problems: CheckInLockProblem[]): string {
  return problems
    .map(({ lockName, problem }) => t(`lockProblem.kind.${problem}`) + (lockName ? ` (${lockName})` : ''))
    .join('; ');
}

/**
 * "Issue a backup code" for a key whose code is not on its door, where its lock's provider keeps a
 * pool: a pooled code stands in at once (audited `key.backup_issued` as the staff member).
 */
export const issueBackupCodeAction = staffAction(
  { name: 'issueBackupCode', permission: 'keys.revoke', input: z.object({ keyId: z.uuid() }), revalidate: DESK },
  async ({ input: { keyId }, tenantId, actor }) => issueBackupCode({ tenantId, keyId, actor }),
);

/** Shows one key's PIN to staff with `keys.reveal_pin`; revealPin audits it. */
export const revealPinAction = staffAction(
  { name: 'revealPin', permission: 'keys.reveal_pin', input: z.object({ keyId: z.uuid() }), revalidate: DESK },
  async ({ input: { keyId }, tenantId, actor }) => revealPin({ tenantId, keyId, actor }),
);

/** Revokes one key of the current tenant with a reason (1–200 characters); the typed reason comes back on failure. */
export const revokeKeyAction = staffAction(
  {
    name: 'revokeKey',
    permission: 'keys.revoke',
    input: z.object({
      keyId: z.uuid(),
      reason: z
        .string('key.revoke.reasonRequired')
        .trim()
        .min(1, 'key.revoke.reasonRequired')
        .max(REASON_MAX, 'key.revoke.reasonTooLong'),
    }),
    echo: { reason: 'text' },
    revalidate: DESK,
  },
  async ({ input: { keyId, reason }, tenantId, actor }) => {
    await revokeKey({ tenantId, keyId, reason, actor });
    return null;
  },
);

/** Replaces a reservation's guest link (a lost or forwarded link): the old one stops working at once, audited. */
export const rotateGuestLinkAction = staffAction(
  {
    name: 'rotateGuestLink',
    permission: 'guest_links.rotate',
    input: z.object({ reservationId: z.uuid() }),
    revalidate: DESK,
  },
  async ({ input: { reservationId }, tenantId, actor }) => {
    await rotateGuestLink({ tenantId, reservationId, actor });
    return null;
  },
);
