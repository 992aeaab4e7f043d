import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadStaffIdentity } from '../auth/staff';
import { signInWithPassword } from '../auth/sign-in';
import { withTenant } from '../db/tx';
import { startMailCatcher, type MailCatcher } from '../../tooling/mail-catcher/mail-catcher';
import { sendAccountMessage } from '../messages/send-account-message';
import { storeCaughtMail } from '../messages/store-caught-mail';
import { createStaffUser } from './create-staff-user';
import { createTenant } from './create-tenant';
import { invitationToken } from '../../tooling/testing/accounts';
import { adminClient, TEST_ACTOR } from '../../tooling/testing/fixtures';
import {
  acceptInvitation,
  activateInvitedAccount,
  declineInvitation,
  inviteMember,
  listInvitations,
  readInvitation,
  INVITATION_RESEND_LIMIT,
  resendInvitation,
  revokeInvitation,
} from './invitations';

// Issue 28, item 6: an address that already has an account is invited, never joined silently, and the
// inviting tenant cannot tell whether it had one.

let admin: pg.Client;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});

const address = (who: string) => `${who}-${randomBytes(4).toString('hex')}@example.com`;
const tenantIdsOf = async (userId: string, sessionGeneration = 0) =>
  (await loadStaffIdentity(userId, sessionGeneration))?.memberships.map((m) => m.tenantId).sort() ?? null;

async function tenantsAB() {
  const a = (await createTenant({ name: 'Inn A' })).id;
  const b = (await createTenant({ name: 'Inn B' })).id;
  const aliceEmail = address('alice');
  const { id: alice } = await createStaffUser({
    tenantId: a,
    email: aliceEmail,
    password: 'alice’s own password',
    role: 'front_desk',
    name: 'Alice Own-Name',
  });
  return { a, b, alice, aliceEmail };
}

describe('adding an address that already has an account to another tenant', () => {
  it('gives that person no access to B until they accept, and their password still opens only A', async () => {
    const { a, b, alice, aliceEmail } = await tenantsAB();
    const invited = await inviteMember({
      tenantId: b,
      email: aliceEmail,
      name: 'Alice',
      role: 'manager',
      actor: TEST_ACTOR,
    });
    expect(invited).toMatchObject({ email: aliceEmail, status: 'invited' });
    expect(await tenantIdsOf(alice)).toEqual([a]);
    const signedIn = await signInWithPassword({
      email: aliceEmail,
      password: 'alice’s own password',
      address: '10.1.0.1',
    });
    expect(signedIn).toMatchObject({ ok: true });
    expect(await tenantIdsOf(alice)).toEqual([a]);
    // Nor does B's manager see the account (no row of users is B's until Alice joins).
    expect(await withTenant({ tenantId: b }, (tx) => tx.user.count({ where: { id: alice } }))).toBe(0);

    // Alice, signed in, accepts with the link from her mail: now she is a manager of B too.
    const token = await invitationToken(b, aliceEmail);
    expect(await acceptInvitation({ token, userId: alice })).toEqual({ tenantId: b, role: 'manager' });
    expect(await tenantIdsOf(alice)).toEqual([a, b].sort());
    // Once only.
    await expect(acceptInvitation({ token, userId: alice })).rejects.toMatchObject({ code: 'not_found' });
    const { rows } = await admin.query(
      `select action, actor_id, subject_id from audit_events where tenant_id = $1 and action like 'member.%' order by occurred_at`,
      [b],
    );
    expect(rows.map((r) => r.action)).toEqual(['member.invited', 'member.joined']);
    expect(rows[1]).toMatchObject({ actor_id: alice, subject_id: alice });
  });

  it('cannot be accepted by another account, even one holding the link', async () => {
    const { b, aliceEmail } = await tenantsAB();
    const mallory = await createStaffUser({
      tenantId: b,
      email: address('mallory'),
      password: 'mallory pw',
      role: 'manager',
    });
    await inviteMember({ tenantId: b, email: aliceEmail, name: '', role: 'front_desk', actor: TEST_ACTOR });
    const token = await invitationToken(b, aliceEmail);
    await expect(acceptInvitation({ token, userId: mallory.id })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(activateInvitedAccount({ token, password: 'taken over?' })).rejects.toMatchObject({
      code: 'conflict',
    });
    expect(await readInvitation(token)).toMatchObject({ tenantName: 'Inn B', needsPassword: false });
  });
});

describe('what the inviting tenant sees', () => {
  it('is the same whether or not the address has an account on the install', async () => {
    const { b, aliceEmail } = await tenantsAB();
    const newEmail = address('newcomer');
    const existing = await inviteMember({
      tenantId: b,
      email: aliceEmail,
      name: 'Alice',
      role: 'front_desk',
      actor: TEST_ACTOR,
    });
    const fresh = await inviteMember({
      tenantId: b,
      email: newEmail,
      name: 'Nina',
      role: 'front_desk',
      actor: TEST_ACTOR,
    });
    const shape = (r: Record<string, unknown>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v]));
    expect(shape(existing)).toEqual(shape(fresh));
    expect([existing.status, fresh.status]).toEqual(['invited', 'invited']);

    const listed = await listInvitations({ tenantId: b });
    expect(
      listed
        .map(({ email, name, role, expired }) => ({ email, name, role, expired }))
        .sort((x, y) => x.name.localeCompare(y.name)),
    ).toEqual([
      // The name B typed, never the one Alice's account carries.
      { email: aliceEmail, name: 'Alice', role: 'front_desk', expired: false },
      { email: newEmail, name: 'Nina', role: 'front_desk', expired: false },
    ]);
    // B's audit rows of both carry the same keys (no "new account" flag), and no mail is B's to read.
    const { rows: audit } = await admin.query(
      `select metadata from audit_events where tenant_id = $1 and action = 'member.invited' order by occurred_at`,
      [b],
    );
    expect(audit.map((r) => Object.keys(r.metadata).sort())).toEqual([
      ['email', 'name', 'role'],
      ['email', 'name', 'role'],
    ]);
    const { rows: mail } = await admin.query(`select count(*)::int as n from messages where tenant_id = $1`, [b]);
    expect(mail[0].n).toBe(0);
    const { rows: accountMail } = await admin.query(
      `select to_address, kind::text from account_messages where to_address = any($1) order by to_address`,
      [[aliceEmail, newEmail].sort()],
    );
    expect(accountMail).toEqual(
      [aliceEmail, newEmail].sort().map((to_address) => ({ to_address, kind: 'staff_invitation' })),
    );
  });

  it('refuses an address that is already a member of the tenant, and supersedes an invitation sent again', async () => {
    const { a, b, aliceEmail } = await tenantsAB();
    await expect(
      inviteMember({ tenantId: a, email: aliceEmail, name: '', role: 'manager', actor: TEST_ACTOR }),
    ).rejects.toMatchObject({ code: 'conflict' });
    await inviteMember({ tenantId: b, email: aliceEmail, name: '', role: 'front_desk', actor: TEST_ACTOR });
    const first = await invitationToken(b, aliceEmail);
    await inviteMember({ tenantId: b, email: aliceEmail.toUpperCase(), name: '', role: 'manager', actor: TEST_ACTOR });
    const second = await invitationToken(b, aliceEmail);
    expect(second).not.toBe(first);
    expect(await readInvitation(first)).toBeNull();
    expect(await readInvitation(second)).toMatchObject({ role: 'manager' });
    expect(await listInvitations({ tenantId: b })).toHaveLength(1);
  });
});

describe('an invitation', () => {
  it('works for 72 hours only', async () => {
    const { alice, b, aliceEmail } = await tenantsAB();
    await inviteMember({ tenantId: b, email: aliceEmail, name: '', role: 'front_desk', actor: TEST_ACTOR });
    const token = await invitationToken(b, aliceEmail);
    await admin.query(
      `update staff_invitations set created_at = created_at - interval '73 hours', expires_at = expires_at - interval '73 hours' where tenant_id = $1`,
      [b],
    );
    expect(await readInvitation(token)).toBeNull();
    await expect(acceptInvitation({ token, userId: alice })).rejects.toMatchObject({ code: 'not_found' });
    expect((await listInvitations({ tenantId: b }))[0]).toMatchObject({ email: aliceEmail, expired: true });
    // The database holds the 72 hours whoever writes.
    await expect(
      admin.query(`update staff_invitations set expires_at = created_at + interval '73 hours' where tenant_id = $1`, [
        b,
      ]),
    ).rejects.toMatchObject({ code: '23514' });
  });

  it('is accepted once when the link is used twice at once, and a resend racing the accept loses', async () => {
    const { alice, b, aliceEmail } = await tenantsAB();
    const { invitationId } = await inviteMember({
      tenantId: b,
      email: aliceEmail,
      name: '',
      role: 'front_desk',
      actor: TEST_ACTOR,
    });
    const token = await invitationToken(b, aliceEmail);
    const answers = await Promise.allSettled([
      acceptInvitation({ token, userId: alice }),
      acceptInvitation({ token, userId: alice }),
      resendInvitation({ tenantId: b, invitationId, actor: TEST_ACTOR }),
    ]);
    const accepted = answers.slice(0, 2).filter((a) => a.status === 'fulfilled');
    const { rows } = await admin.query(
      `select (select count(*)::int from audit_events where tenant_id = $1 and action = 'member.joined') as joined,
              (select count(*)::int from staff_invitations where tenant_id = $1 and accepted_at is not null) as used,
              (select count(*)::int from memberships where tenant_id = $1 and user_id = $2) as member`,
      [b, alice],
    );
    // Either the resend came first (no accept worked: the link was dead) or one accept did and the resend failed.
    if (answers[2].status === 'fulfilled') {
      expect(accepted).toHaveLength(0);
      expect(rows[0]).toEqual({ joined: 0, used: 0, member: 0 });
    } else {
      expect(accepted).toHaveLength(1);
      expect(rows[0]).toEqual({ joined: 1, used: 1, member: 1 });
    }
  });

  it('can be revoked by the tenant, or declined by the person, and then never accepted', async () => {
    const { alice, b, aliceEmail } = await tenantsAB();
    const { invitationId } = await inviteMember({
      tenantId: b,
      email: aliceEmail,
      name: '',
      role: 'front_desk',
      actor: TEST_ACTOR,
    });
    const token = await invitationToken(b, aliceEmail);
    const other = (await createTenant({ name: 'Inn C' })).id;
    await expect(revokeInvitation({ tenantId: other, invitationId, actor: TEST_ACTOR })).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(await revokeInvitation({ tenantId: b, invitationId, actor: TEST_ACTOR })).toEqual({
      invitationId,
      revoked: true,
    });
    expect(await revokeInvitation({ tenantId: b, invitationId, actor: TEST_ACTOR })).toEqual({
      invitationId,
      revoked: false,
    });
    await expect(acceptInvitation({ token, userId: alice })).rejects.toMatchObject({ code: 'not_found' });

    await inviteMember({ tenantId: b, email: aliceEmail, name: '', role: 'front_desk', actor: TEST_ACTOR });
    const again = await invitationToken(b, aliceEmail);
    expect(await declineInvitation({ token: again, userId: alice })).toEqual({ declined: true });
    await expect(acceptInvitation({ token: again, userId: alice })).rejects.toMatchObject({ code: 'not_found' });
    expect(await listInvitations({ tenantId: b })).toEqual([]);
    expect(await tenantIdsOf(alice)).not.toContain(b);
  });
});

describe('sending an invitation again', () => {
  it('gives a new link and mail, 72 hours from now, and the old link is dead from then on', async () => {
    const { alice, b, aliceEmail } = await tenantsAB();
    const first = await inviteMember({
      tenantId: b,
      email: aliceEmail,
      name: 'Al',
      role: 'manager',
      actor: TEST_ACTOR,
    });
    const oldToken = await invitationToken(b, aliceEmail);
    // Past its end: only sending it again helps.
    await admin.query(
      `update staff_invitations set created_at = created_at - interval '73 hours', expires_at = expires_at - interval '73 hours' where id = $1`,
      [first.invitationId],
    );
    const again = await resendInvitation({ tenantId: b, invitationId: first.invitationId, actor: TEST_ACTOR });
    expect(again).toMatchObject({ email: aliceEmail, status: 'invited' });
    expect(again.invitationId).not.toBe(first.invitationId);
    const { rows } = await admin.query(
      `select id, name, role::text, end_reason, extract(epoch from expires_at - created_at)::int as lifetime, created_at > now() - interval '1 minute' as fresh
         from staff_invitations where tenant_id = $1 order by created_at`,
      [b],
    );
    expect(rows.map(({ id, name, role, end_reason, fresh }) => ({ id, name, role, end_reason, fresh }))).toEqual([
      { id: first.invitationId, name: 'Al', role: 'manager', end_reason: 'superseded', fresh: false },
      { id: again.invitationId, name: 'Al', role: 'manager', end_reason: null, fresh: true },
    ]);
    expect(rows[1].lifetime).toBe(72 * 3600);
    expect(await readInvitation(oldToken)).toBeNull();
    await expect(acceptInvitation({ token: oldToken, userId: alice })).rejects.toMatchObject({ code: 'not_found' });
    const newToken = await invitationToken(b, aliceEmail);
    expect(newToken).not.toBe(oldToken);
    expect(await acceptInvitation({ token: newToken, userId: alice })).toEqual({ tenantId: b, role: 'manager' });

    const { rows: mail } = await admin.query(
      `select invitation_id from account_messages where kind = 'staff_invitation' and to_address = $1 order by created_at`,
      [aliceEmail],
    );
    expect(mail.map((m) => m.invitation_id)).toEqual([first.invitationId, again.invitationId]);
    const { rows: audit } = await admin.query(
      `select subject_id, metadata from audit_events where tenant_id = $1 and action = 'member.invitation_resent'`,
      [b],
    );
    expect(audit).toEqual([
      {
        subject_id: again.invitationId,
        metadata: { email: aliceEmail, role: 'manager', previousInvitationId: first.invitationId },
      },
    ]);
    // Answered now: nothing left to send again.
    await expect(
      resendInvitation({ tenantId: b, invitationId: again.invitationId, actor: TEST_ACTOR }),
    ).rejects.toMatchObject({ code: 'conflict' });
  });

  it('sends one new invitation when two managers resend at once, and none for another tenant', async () => {
    const { b, aliceEmail } = await tenantsAB();
    const { invitationId } = await inviteMember({
      tenantId: b,
      email: aliceEmail,
      name: '',
      role: 'front_desk',
      actor: TEST_ACTOR,
    });
    const other = (await createTenant({ name: 'Inn C' })).id;
    await expect(resendInvitation({ tenantId: other, invitationId, actor: TEST_ACTOR })).rejects.toMatchObject({
      code: 'not_found',
    });
    const results = await Promise.allSettled([
      resendInvitation({ tenantId: b, invitationId, actor: TEST_ACTOR }),
      resendInvitation({ tenantId: b, invitationId, actor: TEST_ACTOR }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { code: 'conflict' } });
    const { rows } = await admin.query(
      `select count(*) filter (where accepted_at is null and ended_at is null)::int as open, count(*)::int as all
         from staff_invitations where tenant_id = $1`,
      [b],
    );
    expect(rows[0]).toEqual({ open: 1, all: 2 });
  });

  it('is rate limited per address', async () => {
    const { b, aliceEmail } = await tenantsAB();
    let { invitationId } = await inviteMember({
      tenantId: b,
      email: aliceEmail,
      name: '',
      role: 'front_desk',
      actor: TEST_ACTOR,
    });
    for (let i = 0; i < INVITATION_RESEND_LIMIT.limit; i += 1)
      ({ invitationId } = await resendInvitation({ tenantId: b, invitationId, actor: TEST_ACTOR }));
    await expect(resendInvitation({ tenantId: b, invitationId, actor: TEST_ACTOR })).rejects.toMatchObject({
      code: 'rate_limited',
    });
    // The refused one changed nothing: the last link still works.
    expect(await listInvitations({ tenantId: b })).toMatchObject([{ id: invitationId }]);
  });
});

describe('an address without an account', () => {
  it('gets an account with no password, which signs in nowhere until its owner chooses one from the link', async () => {
    const b = (await createTenant({ name: 'Inn B' })).id;
    const email = address('nina');
    await inviteMember({ tenantId: b, email, name: 'Nina', role: 'front_desk', actor: TEST_ACTOR });
    for (const password of ['', 'null', 'scrypt$x', 'anything at all'])
      expect(await signInWithPassword({ email, password, address: '10.1.0.2' })).toEqual({ ok: false });
    const token = await invitationToken(b, email);
    expect(await readInvitation(token)).toMatchObject({
      tenantName: 'Inn B',
      role: 'front_desk',
      email,
      needsPassword: true,
    });

    const activated = await activateInvitedAccount({ token, password: 'nina chose this' });
    expect(activated).toMatchObject({ tenantId: b });
    expect(await tenantIdsOf(activated.userId, activated.sessionGeneration)).toEqual([b]);
    expect(await signInWithPassword({ email, password: 'nina chose this', address: '10.1.0.2' })).toMatchObject({
      ok: true,
      user: { sessionGeneration: activated.sessionGeneration, mustChangePassword: false },
    });
    await expect(activateInvitedAccount({ token, password: 'someone else' })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('invited by two tenants at once becomes one account, invited by both', async () => {
    const [b, c] = await Promise.all([createTenant({ name: 'Inn B' }), createTenant({ name: 'Inn C' })]);
    const email = address('twice');
    const results = await Promise.all(
      [b.id, c.id].map((tenantId) =>
        inviteMember({ tenantId, email, name: 'Twice', role: 'front_desk', actor: TEST_ACTOR }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(['invited', 'invited']);
    const { rows } = await admin.query(
      `select count(distinct u.id)::int as users, count(i.id)::int as invitations
         from users u join staff_invitations i on i.user_id = u.id where u.email = $1`,
      [email],
    );
    expect(rows[0]).toEqual({ users: 1, invitations: 2 });
  });
});

describe('the invitation mail', () => {
  let catcher: MailCatcher;
  beforeAll(async () => {
    catcher = await startMailCatcher({ onMail: storeCaughtMail });
    process.env.SMTP_URL = `smtp://127.0.0.1:${catcher.port}`;
  });
  afterAll(async () => {
    delete process.env.SMTP_URL;
    await catcher.close();
  });

  it('is account mail: sent once with the link, filed under no tenant, and skipped once the invitation is closed', async () => {
    const { alice, b, aliceEmail } = await tenantsAB();
    await inviteMember({ tenantId: b, email: aliceEmail, name: 'Alice', role: 'front_desk', actor: TEST_ACTOR });
    const token = await invitationToken(b, aliceEmail);
    const { rows } = await admin.query(`select id from account_messages where to_address = $1`, [aliceEmail]);
    const messageId = rows[0].id as string;
    expect(await sendAccountMessage({ messageId, attempt: 1, maxAttempts: 6 })).toBe('sent');
    expect(await sendAccountMessage({ messageId, attempt: 2, maxAttempts: 6 })).toBe('done');
    const { rows: caught } = await admin.query(
      `select rcpt_to, subject, text_body from caught_account_mail where message_id = $1`,
      [messageId],
    );
    expect(caught).toHaveLength(1);
    expect(caught[0].rcpt_to).toBe(aliceEmail);
    expect(caught[0].subject).toContain('Inn B');
    expect(caught[0].text_body).toContain(`/invitations/${token}`);
    expect((await admin.query(`select count(*)::int as n from caught_mail where tenant_id = $1`, [b])).rows[0].n).toBe(
      0,
    );
    // The token is not in the database, only its hash.
    const { rows: leaks } = await admin.query(
      `select count(*)::int as n from staff_invitations where encode(token_hash, 'escape') like '%' || $1 || '%'`,
      [token],
    );
    expect(leaks[0].n).toBe(0);

    // A second invitation's mail, sent after it was accepted, is skipped: no dead link is mailed.
    await acceptInvitation({ token, userId: alice });
    const c = (await createTenant({ name: 'Inn C' })).id;
    await inviteMember({ tenantId: c, email: aliceEmail, name: '', role: 'front_desk', actor: TEST_ACTOR });
    await revokeInvitation({
      tenantId: c,
      invitationId: (await admin.query(`select id from staff_invitations where tenant_id = $1`, [c])).rows[0].id,
      actor: TEST_ACTOR,
    });
    const { rows: later } = await admin.query(
      `select m.id from account_messages m join staff_invitations i on i.id = m.invitation_id where i.tenant_id = $1`,
      [c],
    );
    expect(await sendAccountMessage({ messageId: later[0].id, attempt: 1, maxAttempts: 6 })).toBe('skipped');
  });
});
