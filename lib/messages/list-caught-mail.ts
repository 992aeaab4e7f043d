import { withTenant } from '../db/tx';

export type CaughtMailView = {
  id: string;
  messageId: string;
  to: string;
  subject: string;
  text: string;
  attachments: { filename: string; contentType: string; size: number }[];
  receivedAt: Date;
};

/** The mail the local catcher caught for the tenant's messages, newest first. */
export async function listCaughtMail({
  tenantId,
  userId,
  limit = 50,
}: {
  tenantId: string;
  userId?: string | null;
  limit?: number;
}): Promise<CaughtMailView[]> {
  return withTenant(
    { tenantId, userId },
    (tx) =>
      tx.$queryRaw<
        CaughtMailView[]
      >`select id, message_id as "messageId", rcpt_to as "to", subject, text_body as "text",
        attachments, received_at as "receivedAt"
      from caught_mail where tenant_id = ${tenantId}::uuid
      order by received_at desc, id limit ${Math.min(Math.max(limit, 1), 200)}::int`,
  );
}
