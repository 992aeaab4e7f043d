import { asService, runInTransaction, sqlLiteral, statement, withTenant } from '../db/tx';

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
  const [rows] = await withTenant({ tenantId, userId }, (tx) =>
    runInTransaction(tx, [
      statement<CaughtMailView>(`select id, message_id as "messageId", rcpt_to as "to", subject, text_body as "text",
        attachments, received_at as "receivedAt"
      from caught_mail where tenant_id = ${sqlLiteral(tenantId, 'uuid')}
      order by received_at desc, id limit ${sqlLiteral(Math.min(Math.max(limit, 1), 200), 'int')}`),
    ]),
  );
  return rows;
}

export type CaughtAccountMailView = { to: string; subject: string; text: string; receivedAt: Date };

/**
 * The account mail (invitations', resets' and sign-ups' links) the local catcher caught for an address, newest
 * first: the operator's to read (`cli account-mail`), never a tenant's — a link in it opens an account.
 */
export async function listCaughtAccountMail({
  email,
  limit = 10,
}: {
  email: string;
  limit?: number;
}): Promise<CaughtAccountMailView[]> {
  const [rows] = await asService((tx) =>
    runInTransaction(tx, [
      statement<CaughtAccountMailView>(`select c.rcpt_to as "to", c.subject, c.text_body as "text",
        c.received_at as "receivedAt"
      from caught_account_mail c join account_messages m on m.id = c.message_id
      where m.to_address = ${sqlLiteral(email.trim().toLowerCase(), 'text')}
      order by c.received_at desc, c.id limit ${sqlLiteral(Math.min(Math.max(limit, 1), 50), 'int')}`),
    ]),
  );
  return rows;
}
