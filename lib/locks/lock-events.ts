import type { Tx } from '../db/tx';
import type { LockEvent, LockProviderName } from './provider';

/**
 * Applies a provider's code or device event to the tenant's keys and locks (in `tx` when given).
 * PLACEHOLDER: the real function is being written alongside (issue 14); this stub only fixes the
 * signature the Seam webhook handler calls, and fails loudly so no event is recorded as applied.
 */
export async function applyLockEvent(
  input: { tenantId: string; provider: LockProviderName; event: LockEvent },
  tx?: Tx,
): Promise<unknown> {
  void input;
  void tx;
  throw new Error('not implemented');
}
