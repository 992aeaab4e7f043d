'use server';

import { z } from 'zod';
import { tenantTimeZone } from '@/lib/rooms/list-facilities';
import { zonedLocalToInstant } from '@/lib/time/zoned-local';
import { REPLAY_MAX_DAYS, WEBHOOK_PROVIDERS } from '@/lib/webhooks/webhook-log-filters';
import { replayWebhookEvents } from '@/lib/webhooks/replay';
import { refuse, staffAction } from '@/app/_server/action';

/**
 * Requeues the current tenant's events of one provider received in `[from, to)` (facility
 * wall-clock times). On success, the window replayed (instants, ISO); on failure what was typed
 * comes back so the form keeps it.
 */
export const replayWebhooksAction = staffAction(
  {
    name: 'replayWebhooks',
    permission: 'webhooks.replay',
    input: z.object({
      provider: z.enum(WEBHOOK_PROVIDERS, 'webhooks.replay.providerRequired'),
      from: z.string('webhooks.replay.fromRequired'),
      to: z.string('webhooks.replay.toRequired'),
    }),
    echo: { provider: 'text', from: 'text', to: 'text' },
    revalidate: { path: '/manage/webhooks' },
  },
  async ({ input: { provider, ...local }, tenantId, actor }) => {
    // Wall-clock times read in the facility's zone: known only once the tenant is.
    const timeZone = await tenantTimeZone({ tenantId });
    const from = zonedLocalToInstant(local.from, timeZone);
    const to = zonedLocalToInstant(local.to, timeZone);
    if (!from) return refuse('webhooks.replay.fromRequired', { field: 'from' });
    if (!to) return refuse('webhooks.replay.toRequired', { field: 'to' });
    if (to <= from) return refuse('webhooks.replay.toBeforeFrom', { field: 'to' });
    if (to.getTime() - from.getTime() > REPLAY_MAX_DAYS * 86_400_000)
      return refuse('webhooks.replay.tooLong', { field: 'to', vars: { days: REPLAY_MAX_DAYS } });
    const { requeued } = await replayWebhookEvents({ provider, tenantId, from, to, actor });
    return {
      requeued,
      provider,
      from: from.toISOString(),
      to: to.toISOString(),
      replayedAt: new Date().toISOString(),
    };
  },
);
