import type { Actor } from '../audit/actor';
import {
  accountLinkUrl,
  hashAccountToken,
  isAccountTokenShape,
  newAccountLink,
  tokenHashLiteral,
} from '../auth/account-tokens';
import { hashPassword } from '../auth/password';
import type { Role } from '../auth/permissions';
import { asService, effectStatement, runInTransaction, sqlLiteral, statement } from '../db/tx';
import { AppError } from '../errors';
import { rateLimitHits } from '../ratelimit/rate-limit';

// A member joins a tenant only by accepting an invitation mailed to their address (72 h, single use,
// revocable): the SQL functions of migration 20261204220000_staff_accounts do every step. What the
// inviting tenant sees is the same whether or not the address has an account on the install.

export type InvitationView = {
  id: string;
  email: string;
  name: string;
  role: Role;
  createdAt: Date;
  expiresAt: Date;
  /** Past its end without an answer: it can only be sent again. */
  expired: boolean;
};

/** The same answer for every address: an invitation is on its way. */
export type InviteResult = { invitationId: string; email: string; status: 'invited'; expiresAt: Date };

/**
 * Invites an address to the tenant with a role: an invitation (72 h) and its mail, whether or not the
 * address already has an account on the install (when it has none, one is made without a password;
 * its owner chooses one from the link). The answer and everything the tenant can read afterwards are
 * the same either way. An address already a member of the tenant is `conflict`; inviting an address
 * again supersedes its open invitation. Audited `member.invited`.
 */
export async function inviteMember(input: {
  tenantId: string;
  email: string;
  name: string;
  role: Role;
  actor: Actor;
}): Promise<InviteResult> {
  const { tenantId, role, actor } = input;
  const email = input.email.trim().toLowerCase();
  const link = newAccountLink('staff-invitation');
  const [rows] = await asService({ tenantId }, (tx) =>
    runInTransaction(tx, [
      statement<{ invitation_id: string; expires_at: Date }>(`
      select * from app_invite_member(${sqlLiteral(tenantId, 'uuid')}, ${sqlLiteral(link.id, 'uuid')},
        ${tokenHashLiteral(link.tokenHash)}, ${sqlLiteral(email, 'text')},
        ${sqlLiteral(input.name.trim(), 'text')}, ${sqlLiteral(role, 'membership_role')},
        ${sqlLiteral(actor.type, 'actor_type')}, ${sqlLiteral(actor.id, 'text')},
        ${sqlLiteral(actor.label, 'text')})`),
    ]),
  );
  return { invitationId: rows[0]!.invitation_id, email, status: 'invited', expiresAt: rows[0]!.expires_at };
}

/** The tenant's invitations still waiting for an answer (open or past their end), newest first. */
export async function listInvitations({ tenantId }: { tenantId: string }): Promise<InvitationView[]> {
  const rows = await asService({ tenantId }, (tx) =>
    tx.staffInvitation.findMany({
      where: { tenantId, acceptedAt: null, endedAt: null },
      select: { id: true, email: true, name: true, role: true, createdAt: true, expiresAt: true },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: 200,
    }),
  );
  const now = Date.now();
  return rows.map((r) => ({ ...r, expired: r.expiresAt.getTime() <= now }));
}

/** Ends an invitation that is still waiting (`member.invitation_revoked`); another tenant's id is `not_found`. */
export async function revokeInvitation(input: {
  tenantId: string;
  invitationId: string;
  actor: Actor;
}): Promise<{ invitationId: string; revoked: boolean }> {
  const { tenantId, invitationId, actor } = input;
  const [rows] = await asService({ tenantId }, (tx) =>
    runInTransaction(tx, [
      statement<{
        revoked: boolean;
      }>(`select app_revoke_invitation(${sqlLiteral(tenantId, 'uuid')}, ${sqlLiteral(invitationId, 'uuid')},
      ${sqlLiteral(actor.type, 'actor_type')}, ${sqlLiteral(actor.id, 'text')},
      ${sqlLiteral(actor.label, 'text')}) as revoked`),
    ]),
  );
  return { invitationId, revoked: rows[0]!.revoked };
}

/** At most 5 resends of one tenant's invitations to one address per hour, across every process. */
export const INVITATION_RESEND_LIMIT = { windowSeconds: 3600, limit: 5 } as const;

/**
 * Sends an invitation that is still waiting again (open or past its end): a new link and mail, 72 h from now,
 * and the old link dead from then on (`superseded`), audited `member.invitation_resent`, in one transaction.
 * Another tenant's id is `not_found`; one answered, revoked or sent again meanwhile is `conflict`; past
 * INVITATION_RESEND_LIMIT per address, `rate_limited`.
 */
export async function resendInvitation(input: {
  tenantId: string;
  invitationId: string;
  actor: Actor;
}): Promise<InviteResult> {
  const { tenantId, invitationId, actor } = input;
  const link = newAccountLink('staff-invitation');
  const [found] = await asService({ tenantId }, (tx) =>
    runInTransaction(tx, [
      statement<{ email: string }>(`select email from staff_invitations
        where tenant_id = ${sqlLiteral(tenantId, 'uuid')} and id = ${sqlLiteral(invitationId, 'uuid')}`),
    ]),
  );
  if (!found[0]) throw new AppError('not_found', 'No such invitation.');
  const [, rows] = await asService({ tenantId }, (tx) =>
    runInTransaction(tx, [
      rateLimitHits([{ bucket: `invitation_resend:${tenantId}:${found[0]!.email}`, ...INVITATION_RESEND_LIMIT }]),
      statement<{ invitation_id: string; email: string; expires_at: Date }>(`
      select * from app_resend_invitation(${sqlLiteral(tenantId, 'uuid')}, ${sqlLiteral(invitationId, 'uuid')},
        ${sqlLiteral(link.id, 'uuid')}, ${tokenHashLiteral(link.tokenHash)},
        ${sqlLiteral(actor.type, 'actor_type')}, ${sqlLiteral(actor.id, 'text')}, ${sqlLiteral(actor.label, 'text')})`),
    ]),
  );
  const row = rows[0]!;
  return { invitationId: row.invitation_id, email: row.email, status: 'invited', expiresAt: row.expires_at };
}

/** What the invitation page shows of an open invitation, to whoever holds its link. */
export type InvitationPage = {
  tenantName: string;
  role: Role;
  email: string;
  userId: string;
  expiresAt: Date;
  /** The account was made for an invitation and has no password yet: the link lets its owner choose one. */
  needsPassword: boolean;
};

function tokenHashOf(token: string): Uint8Array<ArrayBuffer> {
  if (!isAccountTokenShape(token)) throw new AppError('not_found', 'This link is not valid any more.');
  return hashAccountToken(token);
}

/** The open invitation a link names, or null (unknown, used, ended or past its end — all alike). */
export async function readInvitation(token: string): Promise<InvitationPage | null> {
  if (!isAccountTokenShape(token)) return null;
  const [rows] = await asService((tx) =>
    runInTransaction(tx, [
      statement<InvitationPage>(`
      select t.name as "tenantName", i.role, i.email, i.user_id as "userId", i.expires_at as "expiresAt",
             (u.password_hash is null) as "needsPassword"
        from staff_invitations i join tenants t on t.id = i.tenant_id join users u on u.id = i.user_id
       where i.token_hash = ${tokenHashLiteral(hashAccountToken(token))}
         and i.accepted_at is null and i.ended_at is null
         and i.expires_at > now()`),
    ]),
  );
  return rows[0] ?? null;
}

/**
 * The signed-in account accepts the invitation its link names: a membership with the invited role,
 * once (`member.joined`). Another account's invitation is `forbidden`; a used, ended, expired or
 * unknown link is `not_found`.
 */
export async function acceptInvitation(input: {
  token: string;
  userId: string;
}): Promise<{ tenantId: string; role: Role }> {
  const tokenHash = tokenHashOf(input.token);
  const [rows] = await asService((tx) =>
    runInTransaction(tx, [
      statement<{ tenant_id: string; role: Role }>(
        `select * from app_accept_invitation(${tokenHashLiteral(tokenHash)}, ${sqlLiteral(input.userId, 'uuid')})`,
      ),
    ]),
  );
  return { tenantId: rows[0]!.tenant_id, role: rows[0]!.role };
}

/** The signed-in account declines the invitation its link names (`member.invitation_declined`). */
export async function declineInvitation(input: { token: string; userId: string }): Promise<{ declined: true }> {
  const tokenHash = tokenHashOf(input.token);
  await asService((tx) =>
    runInTransaction(tx, [
      effectStatement(
        `select app_decline_invitation(${tokenHashLiteral(tokenHash)}, ${sqlLiteral(input.userId, 'uuid')})`,
      ),
    ]),
  );
  return { declined: true };
}

/**
 * An account made for an invitation chooses its first password from the link and joins the tenant,
 * in one transaction. The caller has checked the password's rules. An account with a password
 * already is `conflict` (it signs in to accept).
 */
export async function activateInvitedAccount(input: {
  token: string;
  password: string;
}): Promise<{ userId: string; tenantId: string; sessionGeneration: number }> {
  const tokenHash = tokenHashOf(input.token);
  const passwordHash = await hashPassword(input.password);
  const [rows] = await asService((tx) =>
    runInTransaction(tx, [
      statement<{ user_id: string; tenant_id: string; session_generation: number }>(`
      select * from app_activate_invited_account(${tokenHashLiteral(tokenHash)}, ${sqlLiteral(passwordHash, 'text')})`),
    ]),
  );
  const row = rows[0]!;
  return { userId: row.user_id, tenantId: row.tenant_id, sessionGeneration: row.session_generation };
}

/** The invitation's link, as its mail carries it. */
export function invitationUrl(invitationId: string): string {
  return accountLinkUrl('staff-invitation', invitationId);
}
