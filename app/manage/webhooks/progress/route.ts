import { z } from 'zod';
import { invalidRequest, json, withRequest } from '@/lib/api/http';
import { can } from '@/lib/auth/permissions';
import { AppError } from '@/lib/errors';
import { getReplayProgress } from '@/lib/webhooks/replay-progress';
import { WEBHOOK_PROVIDERS } from '@/lib/webhooks/webhook-log-filters';
import { getStaff } from '@/app/_server/staff';
import { ZInstantSchema } from '@/lib/time/date-schemas';

const ZReplayProgressQuerySchema = z.object({
  provider: z.enum(WEBHOOK_PROVIDERS),
  from: ZInstantSchema,
  to: ZInstantSchema,
});

/** How far a replay has got: `{ data: { counts, total, settled, pending } }` for the current tenant's events of one provider in `[from, to)`. */
export const GET = withRequest(async ({ request, requestId }) => {
  const staff = await getStaff();
  if (!staff) throw new AppError('unauthorized', 'Sign in first.');
  if (!can(staff.current.role, 'webhooks.view')) throw new AppError('forbidden', 'Not allowed.');
  const params = new URL(request.url).searchParams;
  const parsed = ZReplayProgressQuerySchema.safeParse({
    provider: params.get('provider'),
    from: params.get('from'),
    to: params.get('to'),
  });
  if (!parsed.success) throw invalidRequest(parsed.error);
  const progress = await getReplayProgress({ tenantId: staff.current.tenantId, ...parsed.data });
  return json({ data: progress }, { requestId });
});
