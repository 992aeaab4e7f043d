'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { logger } from '@/lib/log/logger';
import { listFacilities } from '@/lib/rooms/list-facilities';
import { zonedLocalToInstant } from '@/lib/time/zoned-local';
import { REPLAY_MAX_DAYS, WEBHOOK_PROVIDERS } from '@/lib/webhooks/webhook-log-filters';
import { replayWebhookEvents } from '@/lib/webhooks/replay';
import { getT } from '../../_server/i18n';
import { requireStaff } from '../../_server/staff';

// Server actions are public endpoints: this one re-checks the session and permission, takes the
// tenant from the session (never from the form), validates its input and calls one lib function.

type Provider = (typeof WEBHOOK_PROVIDERS)[number];

/** What was typed comes back on failure so the form keeps it; on success, the window replayed (instants, ISO). */
export type ReplayState =
  | { ok: true; requeued: number; provider: Provider; from: string; to: string; replayedAt: string }
  | {
      ok: false;
      message: string;
      field?: 'provider' | 'from' | 'to';
      values: { provider: string; from: string; to: string };
    }
  | null;

/** Requeues the current tenant's events of one provider received in `[from, to)` (facility wall-clock times). */
export async function replayWebhooksAction(_previous: ReplayState, formData: FormData): Promise<ReplayState> {
  const staff = await requireStaff('webhooks.replay', '/manage/webhooks');
  const t = await getT();
  const { tenantId } = staff.current;
  const text = (name: string) => {
    const value = formData.get(name);
    return typeof value === 'string' ? value.slice(0, 100) : '';
  };
  const values = { provider: text('provider'), from: text('from'), to: text('to') };
  const timeZone = (await listFacilities({ tenantId }))[0]?.timeZone ?? 'UTC';
  const instant = (message: string) =>
    z.string().transform((value, ctx) => {
      const at = zonedLocalToInstant(value, timeZone);
      if (!at) ctx.addIssue({ code: 'custom', message });
      return at ?? new Date(Number.NaN);
    });
  const schema = z
    .object({
      provider: z.enum(WEBHOOK_PROVIDERS, t('webhooks.replay.providerRequired')),
      from: instant(t('webhooks.replay.fromRequired')),
      to: instant(t('webhooks.replay.toRequired')),
    })
    .refine((w) => w.to > w.from, { path: ['to'], message: t('webhooks.replay.toBeforeFrom') })
    .refine((w) => w.to.getTime() - w.from.getTime() <= REPLAY_MAX_DAYS * 86_400_000, {
      path: ['to'],
      message: t('webhooks.replay.tooLong', { days: REPLAY_MAX_DAYS }),
    });
  const parsed = schema.safeParse(values);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path[0];
    return {
      ok: false,
      message: issue?.message ?? t('webhooks.replay.error'),
      field: field === 'provider' || field === 'from' || field === 'to' ? field : undefined,
      values,
    };
  }
  const { provider, from, to } = parsed.data;
  try {
    const { requeued } = await replayWebhookEvents({
      provider,
      tenantId,
      from,
      to,
      actor: { type: 'user', id: staff.user.id, label: staff.user.name || staff.user.email },
    });
    revalidatePath('/manage/webhooks');
    return {
      ok: true,
      requeued,
      provider,
      from: from.toISOString(),
      to: to.toISOString(),
      replayedAt: new Date().toISOString(),
    };
  } catch (error) {
    logger.error({ err: error, tenantId, provider }, 'webhook replay failed');
    return { ok: false, message: t('webhooks.replay.error'), values };
  }
}
