import { z } from 'zod';
import { invalidRequest, withRequest } from '@/lib/api/http';
import { readRegisterDay, registerCsv } from '@/lib/registration/register-day';
import { requireRegisterReader } from '../register-request';
import { ZCalendarDaySchema } from '@/lib/time/date-schemas';

const ZExportQuerySchema = z.object({ facility: z.uuid(), day: ZCalendarDaySchema });

/** A facility's guest register for one arrival day, as CSV for the authorities; audited `registration.exported`. */
export const GET = withRequest(async ({ request }) => {
  const staff = await requireRegisterReader();
  const parsed = ZExportQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) throw invalidRequest(parsed.error);
  const { facility, day } = parsed.data;
  const stays = await readRegisterDay(
    { tenantId: staff.current.tenantId, userId: staff.user.id },
    { facilityId: facility, day, purpose: 'exported' },
  );
  return new Response(registerCsv(stays), {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="guest-register-${day}.csv"`,
      'cache-control': 'no-store',
    },
  });
});
