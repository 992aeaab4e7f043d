'use server';

import { z } from 'zod';
import { remoteUnlock } from '@/lib/locks/remote-unlock';
import { remoteUnlockState } from '@/lib/locks/remote-unlock-state';
import { staffAction, type ActionState } from '@/app/_server/action';

const REASON_MAX = 300;

/** What the desk reads after "Open door": opened, sent but not yet confirmed by the lock, or refused by it. */
export type RemoteUnlockOutcome = {
  /** The remote unlock, followed while it is pending (`/desk/unlocks/{id}`). */
  id: string | null;
  status: 'done' | 'pending' | 'failed';
  /** When the answer came, for "Door opened at 15:04". */
  at: string;
  /** The provider's failure code, said in plain words beside it. */
  problem: string | null;
};

/**
 * Opens one of the tenant's doors now through its lock provider, for a required reason (audited with the person).
 * A lock whose provider cannot is refused (`not_supported`), as is a door or person over the rate limit; a provider
 * that answers with an error is an outcome (`failed`, the provider's code read back from the request's row), not a
 * refusal: the desk sees the lock's words.
 */
export const remoteUnlockAction = staffAction(
  {
    name: 'remoteUnlock',
    permission: 'doors.unlock',
    input: z.object({
      lockId: z.uuid(),
      reason: z
        .string('doors.open.reasonRequired')
        .trim()
        .min(1, 'doors.open.reasonRequired')
        .max(REASON_MAX, 'doors.open.reasonTooLong'),
    }),
    echo: { reason: 'text' },
    revalidate: { path: '/desk', type: 'layout' },
  },
  async ({ input: { lockId, reason }, tenantId, actor }): Promise<RemoteUnlockOutcome> => {
    const unlocked = await remoteUnlock({ tenantId, lockId, reason, actor });
    const at = new Date().toISOString();
    if (unlocked.status !== 'failed') return { id: unlocked.id, status: unlocked.status, at, problem: null };
    // The provider answered with an error: the request is recorded, the door stayed shut — say the lock's words.
    const state = await remoteUnlockState({ tenantId, userId: actor.id, remoteUnlockId: unlocked.id });
    return { id: unlocked.id, status: 'failed', at, problem: state?.error ?? null };
  },
);
export type RemoteUnlockActionState = ActionState<RemoteUnlockOutcome, { reason: 'text' }>;
