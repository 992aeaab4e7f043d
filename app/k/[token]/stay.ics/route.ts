import { getT } from '@/i18n/server';
import { withRequest } from '@/lib/api/http';
import { AppError } from '@/lib/errors';
import { guestStayIcs } from '@/lib/guests/guest-stay-ics';
import { limitGuestStatusRequest } from '@/lib/guests/guest-rate-limits';
import { clientAddress } from '@/lib/http/client-address';

/** The stay as an .ics for the guest's calendar (no PIN in it); 404 wherever the key page is one. */
export const GET = withRequest<{ token: string }>(async ({ request }, { token }) => {
  await limitGuestStatusRequest(token, clientAddress(request));
  const t = await getT();
  const ics = await guestStayIcs(token, {
    summary: (values) => t('guestStay.icsSummary', values),
    description: (values) => t('guestStay.icsDescription', values),
  });
  if (!ics) throw new AppError('not_found', 'This key link is unknown or has expired.');
  return new Response(ics, {
    headers: {
      'content-type': 'text/calendar; charset=utf-8',
      'content-disposition': 'attachment; filename="stay.ics"',
      'cache-control': 'no-store',
    },
  });
});
