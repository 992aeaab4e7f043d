import { withTenant } from '../db/tx';
import type { WebhookProvider, WebhookStatus } from '../db/generated/enums';

/** Statuses a replayed event can still leave on its own (the worker has yet to settle it). */
export const PENDING_WEBHOOK_STATUSES: readonly WebhookStatus[] = ['received', 'failed'];

export type ReplayProgress = {
  counts: Record<WebhookStatus, number>;
  total: number;
  /** processed, ignored, rejected or dead: nothing more will happen to these without another replay. */
  settled: number;
  /** received or failed: still queued or waiting for a retry. */
  pending: number;
};

/** How far a replay of one tenant's provider events in `[from, to)` has got: counts by status. */
export async function getReplayProgress(input: {
  tenantId: string;
  provider: WebhookProvider;
  from: Date;
  to: Date;
}): Promise<ReplayProgress> {
  const { tenantId, provider } = input;
  const groups = await withTenant({ tenantId }, (tx) =>
    tx.webhookEvent.groupBy({
      by: ['status'],
      where: { tenantId, provider, receivedAt: { gte: input.from, lt: input.to } },
      _count: true,
    }),
  );
  const counts: Record<WebhookStatus, number> = {
    received: 0,
    processed: 0,
    ignored: 0,
    rejected: 0,
    failed: 0,
    dead: 0,
  };
  for (const group of groups) counts[group.status] += group._count;
  const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
  const pending = PENDING_WEBHOOK_STATUSES.reduce((sum, status) => sum + counts[status], 0);
  return { counts, total, settled: total - pending, pending };
}
