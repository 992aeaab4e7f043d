import { decodeCursor, encodeCursor } from '../paging/cursor';
import { withTenant } from '../db/tx';
import type { WebhookProvider, WebhookStatus } from '../db/generated/enums';

export type WebhookEventView = {
  id: string;
  provider: WebhookProvider;
  type: string;
  status: WebhookStatus;
  reason: string | null;
  receivedAt: string;
  attempts: number;
};

/** A tenant's webhook events, newest first, filtered by provider, status, time and (for a link to one event) id. */
export async function listWebhookEvents(input: {
  tenantId: string;
  id?: string;
  provider?: WebhookProvider;
  status?: WebhookStatus;
  from?: Date;
  to?: Date;
  limit: number;
  cursor?: string;
}): Promise<{ data: WebhookEventView[]; nextCursor: string | null }> {
  const { tenantId } = input;
  const before = input.cursor ? decodeCursor(input.cursor) : null;
  const rows = await withTenant({ tenantId }, (tx) =>
    tx.webhookEvent.findMany({
      where: {
        tenantId,
        ...(input.id ? { id: input.id } : {}),
        ...(input.provider ? { provider: input.provider } : {}),
        ...(input.status ? { status: input.status } : {}),
        ...(input.from || input.to
          ? { receivedAt: { ...(input.from ? { gte: input.from } : {}), ...(input.to ? { lt: input.to } : {}) } }
          : {}),
        ...(before
          ? { OR: [{ receivedAt: { lt: before.at } }, { receivedAt: before.at, id: { lt: before.id } }] }
          : {}),
      },
      select: { id: true, provider: true, type: true, status: true, reason: true, receivedAt: true, attempts: true },
      orderBy: [{ receivedAt: 'desc' }, { id: 'desc' }],
      take: input.limit + 1,
    }),
  );
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  return {
    data: page.map((e) => ({ ...e, receivedAt: e.receivedAt.toISOString() })),
    nextCursor: rows.length > input.limit && last ? encodeCursor(last.receivedAt, last.id) : null,
  };
}
