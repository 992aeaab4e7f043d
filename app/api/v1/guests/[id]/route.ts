import { apiKeyActor } from '@/lib/api/actor';
import { pathId } from '@/lib/api/body';
import { withApiKey } from '@/lib/api/with-api-key';
import { deleteGuest } from '@/lib/guests/delete-guest';

export const DELETE = withApiKey<{ id: string }>(async ({ principal }, { id }) => {
  await deleteGuest({ tenantId: principal.tenantId, guestId: pathId(id), actor: apiKeyActor(principal) });
  return new Response(null, { status: 204 });
});
