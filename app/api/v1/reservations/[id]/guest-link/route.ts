import { apiKeyActor } from '@/lib/api/actor';
import { pathId } from '@/lib/api/body';
import { json } from '@/lib/api/http';
import { withApiKey } from '@/lib/api/with-api-key';
import { rotateGuestLink } from '@/lib/guests/rotate-guest-link';

export const POST = withApiKey<{ id: string }>(async ({ principal, requestId }, { id }) =>
  json(
    {
      data: await rotateGuestLink({
        tenantId: principal.tenantId,
        reservationId: pathId(id),
        actor: apiKeyActor(principal),
      }),
    },
    { requestId },
  ),
);
