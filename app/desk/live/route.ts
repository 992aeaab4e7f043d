import { z } from 'zod';
import { invalidRequest, json, withRequest } from '@/lib/api/http';
import { can } from '@/lib/auth/permissions';
import { deskDayWindow } from '@/lib/desk/desk-day';
import { deskSyncState, MAX_WATCHED, MAX_WATCHED_RANGE_MS } from '@/lib/desk/desk-sync-state';
import { AppError } from '@/lib/errors';
import { getStaff } from '@/app/_server/staff';
import { ZInstantTextSchema } from '@/lib/time/date-schemas';

const ZLiveQuerySchema = z.array(z.uuid()).max(MAX_WATCHED);
// What the screen shows besides its stays, as the stretch of time to watch: the desk's day
// (`watch=day`, judged now, so a page left open overnight watches the new day), a range (the grid), or none.
const ZWatchSchema = z.union([
  z.object({ watch: z.literal('day') }).transform(() => deskDayWindow(new Date())),
  z
    .object({ from: ZInstantTextSchema, to: ZInstantTextSchema })
    .transform(({ from, to }) => ({ from: new Date(from), to: new Date(to) }))
    .refine(({ from, to }) => to > from && to.getTime() - from.getTime() <= MAX_WATCHED_RANGE_MS),
  z
    .object({})
    .strict()
    .transform(() => undefined),
]);

/**
 * What an open desk screen polls: `{ data: { pending, fingerprint } }` for the current tenant's
 * reservations in `ids` (comma-separated) and the stays of what the screen shows (`watch=day`, or
 * `from` and `to`), so it reloads only when a key, a door or a stay changed, or a stay was added.
 */
export const GET = withRequest(async ({ request, requestId }) => {
  const staff = await getStaff();
  if (!staff) throw new AppError('unauthorized', 'Sign in first.');
  if (!can(staff.current.role, 'desk.view')) throw new AppError('forbidden', 'Not allowed.');
  const params = new URL(request.url).searchParams;
  const ids = params.get('ids') ?? '';
  const parsed = ZLiveQuerySchema.safeParse(ids === '' ? [] : ids.split(','));
  if (!parsed.success) throw invalidRequest(parsed.error);
  const watch = ZWatchSchema.safeParse(
    params.get('watch')
      ? { watch: params.get('watch') }
      : params.has('from')
        ? { from: params.get('from'), to: params.get('to') }
        : {},
  );
  if (!watch.success) throw invalidRequest(watch.error);
  const state = await deskSyncState({
    tenantId: staff.current.tenantId,
    userId: staff.user.id,
    reservationIds: parsed.data,
    window: watch.data,
  });
  return json({ data: state }, { requestId });
});
