import { apiKeyActor } from '@/lib/api/actor';
import { pathId, readJson } from '@/lib/api/body';
import { json } from '@/lib/api/http';
import { ZSendMessageBodySchema } from '@/lib/api/message-schemas';
import { withApiKey } from '@/lib/api/with-api-key';
import { listReservationMessages } from '@/lib/messages/list-messages';
import { toMessageView } from '@/lib/messages/message-view';
import { resendKeyLink } from '@/lib/messages/resend-key-link';

export const GET = withApiKey<{ id: string }>(async ({ principal, requestId }, { id }) => {
  const messages = await listReservationMessages({ tenantId: principal.tenantId, reservationId: pathId(id) });
  return json({ data: messages.map(toMessageView) }, { requestId });
});

export const POST = withApiKey<{ id: string }>(async ({ principal, request, requestId }, { id }) => {
  const reservationId = pathId(id);
  await readJson(request, ZSendMessageBodySchema);
  const message = await resendKeyLink({ tenantId: principal.tenantId, reservationId, actor: apiKeyActor(principal) });
  return json({ data: toMessageView(message) }, { status: 202, requestId });
});
