import { randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { derivedToken } from '../auth/guest-links';
import { signInWithPassword } from '../auth/sign-in';
import { loadStaffIdentity } from '../auth/staff';
import { sendAccountMessage } from '../messages/send-account-message';
import { storeCaughtMail } from '../messages/store-caught-mail';
import { setupChecklist } from '../overview/setup-checklist';
import { startMailCatcher, type MailCatcher } from '../../tooling/mail-catcher/mail-catcher';
import { adminClient, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { createStaffUser } from './create-staff-user';
import { createTenant } from './create-tenant';
import { inviteMember } from './invitations';
import {
  completeSignUp,
  readSignUp,
  requestSignUp,
  SIGN_UPS_PER_ADDRESS,
  SIGN_UPS_PER_EMAIL,
  type TSignUp,
} from './sign-up';

// Issue 32, item 1: a sign-up makes nothing until its emailed link is followed; the link makes the
// tenant, its facility, its manager and the membership once, in one transaction.

let admin: pg.Client;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});
afterEach(() => {
  delete process.env.SIGN_UP;
});

const suffix = () => randomBytes(4).toString('hex');
const address = () => `10.32.${randomBytes(1)[0]}.${randomBytes(1)[0]}-${suffix()}`;

function form(overrides: Partial<TSignUp> = {}): TSignUp {
  const id = suffix();
  return {
    organisationName: `Harbor Group ${id}`,
    facilityName: `Harbor House ${id}`,
    timeZone: 'Asia/Tokyo',
    name: 'Hana Harbor',
    email: `hana-${id}@example.com`,
    ...overrides,
  };
}

/** The password the person who followed the link types on its page. */
const PASSWORD = 'harbor house opens soon';
const chosen = { next: PASSWORD, confirm: PASSWORD };

const ask = (input: TSignUp, from = address()) => requestSignUp({ ...input, address: from, locale: 'en' });

async function rowsOf(email: string) {
  const { rows } = await admin.query<{
    id: string;
    used_at: Date | null;
    ended_at: Date | null;
    opened_tenant_id: string | null;
  }>(`select id, used_at, ended_at, opened_tenant_id from sign_ups where email = $1 order by created_at`, [email]);
  return rows;
}

async function tokenOf(email: string): Promise<string> {
  const rows = await rowsOf(email);
  const open = rows.filter((r) => !r.used_at && !r.ended_at);
  if (open.length !== 1) throw new Error(`${open.length} open sign-ups for ${email}`);
  return derivedToken('sign-up', open[0]!.id);
}

/** What a sign-up could have written: tenants of the name, accounts of the email, and their memberships. */
async function written(input: TSignUp) {
  const { rows } = await admin.query<{ tenants: number; users: number; memberships: number; facilities: number }>(
    `select (select count(*)::int from tenants where name = $1) as tenants,
            (select count(*)::int from users where email = $2) as users,
            (select count(*)::int from memberships m join tenants t on t.id = m.tenant_id where t.name = $1) as memberships,
            (select count(*)::int from facilities f join tenants t on t.id = f.tenant_id where t.name = $1) as facilities`,
    [input.organisationName, input.email],
  );
  return rows[0]!;
}

const NOTHING = { tenants: 0, users: 0, memberships: 0, facilities: 0 };

describe('asking for a sign-up', () => {
  it('writes a pending row without any password and queues its mail; no tenant, no account yet', async () => {
    const input = form();
    // A client that sends a password along anyway: nothing of it is kept.
    expect(await ask({ ...input, ...chosen } as TSignUp)).toEqual({ sent: true });
    const rows = await rowsOf(input.email);
    expect(rows).toHaveLength(1);
    const { rows: stored } = await admin.query(`select row_to_json(s)::text as row from sign_ups s where id = $1`, [
      rows[0]!.id,
    ]);
    expect(stored[0].row).not.toMatch(/scrypt|password/);
    expect(stored[0].row).not.toContain(PASSWORD);
    const { rows: mail } = await admin.query(
      `select kind::text, user_id, to_address, status::text from account_messages where sign_up_id = $1`,
      [rows[0]!.id],
    );
    expect(mail).toEqual([{ kind: 'sign_up', user_id: null, to_address: input.email, status: 'queued' }]);
    expect(await written(input)).toEqual(NOTHING);
    // The page of its link shows what it will open, for 24 hours.
    const page = await readSignUp(await tokenOf(input.email));
    expect(page).toMatchObject({
      email: input.email,
      organisationName: input.organisationName,
      facilityName: input.facilityName,
      timeZone: 'Asia/Tokyo',
      accountUserId: null,
    });
    const hours = (page!.expiresAt.getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
  });

  it('refuses bad input and writes nothing: no row, no mail, no count against the limits', async () => {
    const from = address();
    const bad: Partial<TSignUp>[] = [
      { organisationName: '   ' },
      { facilityName: '' },
      { timeZone: 'Mars/Olympus_Mons' },
      { email: 'not-an-email' },
      { organisationName: 'x'.repeat(201) },
    ];
    for (const overrides of bad) {
      const input = form(overrides);
      await expect(ask(input, from)).rejects.toMatchObject({ code: 'invalid_request' });
      expect(await rowsOf(input.email.toLowerCase())).toEqual([]);
    }
    // Every refusal above came before the limits were counted: the address still has its whole allowance.
    for (let i = 0; i < SIGN_UPS_PER_ADDRESS; i++) await ask(form(), from);
    await expect(ask(form(), from)).rejects.toMatchObject({ code: 'rate_limited' });
  });

  it('is limited per email and per client address, counted in PostgreSQL; over the limit writes nothing', async () => {
    const input = form();
    for (let i = 0; i < SIGN_UPS_PER_EMAIL; i++) await ask(input);
    await expect(ask(input)).rejects.toMatchObject({
      code: 'rate_limited',
      details: { retryAfter: expect.any(Number) },
    });
    const rows = await rowsOf(input.email);
    expect(rows).toHaveLength(SIGN_UPS_PER_EMAIL);
    // Asking again ends the earlier link: one open sign-up per email.
    expect(rows.filter((r) => !r.ended_at)).toHaveLength(1);

    const from = address();
    const emails: string[] = [];
    for (let i = 0; i < SIGN_UPS_PER_ADDRESS; i++) {
      const other = form();
      emails.push(other.email);
      await ask(other, from);
    }
    const over = form();
    await expect(ask(over, from)).rejects.toMatchObject({ code: 'rate_limited' });
    expect(await rowsOf(over.email)).toEqual([]);
  });
});

describe('following the link', () => {
  it('makes the tenant, its facility, the manager and the membership once, audited, and signs in with the password', async () => {
    const input = form();
    await ask(input);
    const token = await tokenOf(input.email);
    const done = await completeSignUp({ token, password: chosen });
    expect(done).toMatchObject({ email: input.email, name: 'Hana Harbor', newAccount: true });
    expect(await written(input)).toEqual({ tenants: 1, users: 1, memberships: 1, facilities: 1 });
    const { rows: facility } = await admin.query(`select name, time_zone from facilities where tenant_id = $1`, [
      done.tenantId,
    ]);
    expect(facility).toEqual([{ name: input.facilityName, time_zone: 'Asia/Tokyo' }]);
    const identity = await loadStaffIdentity(done.userId, done.sessionGeneration);
    expect(identity?.memberships).toEqual([
      expect.objectContaining({ tenantId: done.tenantId, role: 'manager', tenantName: input.organisationName }),
    ]);
    const { rows: audit } = await admin.query(
      `select actor_type::text, actor_id, action, subject_id, metadata from audit_events where tenant_id = $1`,
      [done.tenantId],
    );
    expect(audit).toEqual([
      expect.objectContaining({
        actor_type: 'user',
        actor_id: done.userId,
        action: 'tenant.signed_up',
        subject_id: done.tenantId,
        metadata: expect.objectContaining({ email: input.email, facilityId: done.facilityId, newAccount: true }),
      }),
    ]);
    // The link is used; the password typed on its page signs in.
    expect(await rowsOf(input.email)).toEqual([
      expect.objectContaining({ used_at: expect.any(Date), opened_tenant_id: done.tenantId }),
    ]);
    expect(await signInWithPassword({ email: input.email, password: PASSWORD, address: address() })).toMatchObject({
      ok: true,
    });
    // Once: again, it is not found, and writes nothing more.
    await expect(completeSignUp({ token, password: chosen })).rejects.toMatchObject({ code: 'not_found' });
    expect(await readSignUp(token)).toBeNull();
    expect(await written(input)).toEqual({ tenants: 1, users: 1, memberships: 1, facilities: 1 });
    // The new tenant's checklist: the facility is there, the rest to do.
    expect(await setupChecklist({ tenantId: done.tenantId })).toEqual({
      steps: [
        { step: 'facility', done: true },
        { step: 'rooms', done: false },
        { step: 'doors', done: false },
        { step: 'channels', done: false },
        { step: 'payments', done: false },
        { step: 'staff', done: false },
      ],
      allDone: false,
      facilityId: done.facilityId,
    });
  });

  it('two clicks at once make one tenant: the link is used exactly once', async () => {
    const input = form();
    await ask(input);
    const token = await tokenOf(input.email);
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, () => completeSignUp({ token, password: chosen })),
    );
    const fulfilled = results.filter((r) => r.status === 'fulfilled');
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(fulfilled).toHaveLength(1);
    expect(rejected.map((r) => (r.reason as { code?: string }).code)).toEqual(['not_found', 'not_found', 'not_found']);
    expect(await written(input)).toEqual({ tenants: 1, users: 1, memberships: 1, facilities: 1 });
    const { rows } = await admin.query(
      `select count(*)::int as n from audit_events a join tenants t on t.id = a.tenant_id
        where t.name = $1 and a.action = 'tenant.signed_up'`,
      [input.organisationName],
    );
    expect(rows[0].n).toBe(1);
  });

  it('refuses an expired, a replaced or an unknown link alike, writing nothing', async () => {
    const input = form();
    await ask(input);
    const first = await tokenOf(input.email);
    await ask(input);
    const second = await tokenOf(input.email);
    // Replaced by the newer sign-up.
    await expect(completeSignUp({ token: first, password: chosen })).rejects.toMatchObject({ code: 'not_found' });
    // Past its 24 hours.
    await admin.query(
      `update sign_ups set created_at = now() - interval '25 hours', expires_at = now() - interval '1 hour'
        where email = $1 and ended_at is null`,
      [input.email],
    );
    expect(await readSignUp(second)).toBeNull();
    await expect(completeSignUp({ token: second, password: chosen })).rejects.toMatchObject({ code: 'not_found' });
    // Unknown, or not a token at all.
    await expect(
      completeSignUp({ token: derivedToken('sign-up', randomUUID()), password: chosen }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(completeSignUp({ token: 'nope', password: chosen })).rejects.toMatchObject({ code: 'not_found' });
    expect(await written(input)).toEqual(NOTHING);
    expect((await rowsOf(input.email)).every((r) => r.used_at === null)).toBe(true);
  });
});

describe('SIGN_UP=closed', () => {
  it('refuses the request and the link, writing nothing; open again, the link works', async () => {
    const input = form();
    await ask(input);
    const token = await tokenOf(input.email);
    process.env.SIGN_UP = 'closed';
    const other = form();
    await expect(ask(other)).rejects.toMatchObject({ code: 'forbidden' });
    expect(await rowsOf(other.email)).toEqual([]);
    await expect(completeSignUp({ token, password: chosen })).rejects.toMatchObject({ code: 'forbidden' });
    expect(await written(input)).toEqual(NOTHING);
    process.env.SIGN_UP = 'open';
    await completeSignUp({ token, password: chosen });
    expect(await written(input)).toEqual({ tenants: 1, users: 1, memberships: 1, facilities: 1 });
  });
});

describe('an email that already has an account', () => {
  async function existing() {
    const tenantId = (await createTenant({ name: `Old Inn ${suffix()}` })).id;
    const email = `kenji-${suffix()}@example.com`;
    const { id } = await createStaffUser({ tenantId, email, password: 'kenji’s own password', role: 'front_desk' });
    return { tenantId, email, userId: id };
  }

  it('reads the same to the asker, and opens the organisation only for that account signed in', async () => {
    const kenji = await existing();
    const input = form({ email: kenji.email });
    expect(await ask(input)).toEqual({ sent: true });
    expect(await rowsOf(kenji.email)).toHaveLength(1);
    const { rows: mail } = await admin.query(
      `select m.user_id from account_messages m join sign_ups s on s.id = m.sign_up_id where s.email = $1`,
      [kenji.email],
    );
    expect(mail).toEqual([{ user_id: kenji.userId }]);
    const token = await tokenOf(kenji.email);
    expect(await readSignUp(token)).toMatchObject({ accountUserId: kenji.userId });

    // Signed out, or signed in as someone else: refused, nothing written.
    await expect(completeSignUp({ token, userId: null, password: chosen })).rejects.toMatchObject({
      code: 'forbidden',
    });
    const stranger = await existing();
    await expect(completeSignUp({ token, userId: stranger.userId })).rejects.toMatchObject({ code: 'forbidden' });
    expect(await written(input)).toEqual({ ...NOTHING, users: 1 });

    // Kenji, signed in: he manages the new organisation with the account he has; no second account. A password
    // sent along is not his new one: an account that signs in keeps its own.
    const done = await completeSignUp({ token, userId: kenji.userId, password: chosen });
    expect(done).toMatchObject({ userId: kenji.userId, newAccount: false });
    expect(await written(input)).toEqual({ tenants: 1, users: 1, memberships: 1, facilities: 1 });
    const identity = await loadStaffIdentity(kenji.userId, done.sessionGeneration);
    expect(identity?.memberships.map((m) => [m.tenantId, m.role]).sort()).toEqual(
      [
        [kenji.tenantId, 'front_desk'],
        [done.tenantId, 'manager'],
      ].sort(),
    );
    // His password is his own still; what the form was given opens nothing.
    expect(await signInWithPassword({ email: kenji.email, password: 'kenji’s own password' })).toMatchObject({
      ok: true,
    });
    expect(await signInWithPassword({ email: kenji.email, password: PASSWORD, address: address() })).toMatchObject({
      ok: false,
    });
  });

  it('lets an account made for an invitation, without a password yet, choose it through the link', async () => {
    const inviter = (await createTenant({ name: `Inviting Inn ${suffix()}` })).id;
    const email = `aiko-${suffix()}@example.com`;
    await inviteMember({ tenantId: inviter, email, name: 'Aiko', role: 'front_desk', actor: TEST_ACTOR });
    const input = form({ email });
    await ask(input);
    const token = await tokenOf(email);
    expect(await readSignUp(token)).toMatchObject({ accountUserId: null });
    // Without the password typed on the link's page, nothing is opened.
    await expect(completeSignUp({ token })).rejects.toMatchObject({ code: 'invalid_request' });
    expect(await written(input)).toEqual({ ...NOTHING, users: 1 });
    const done = await completeSignUp({ token, password: chosen });
    expect(done.newAccount).toBe(false);
    expect(await written(input)).toEqual({ tenants: 1, users: 1, memberships: 1, facilities: 1 });
    expect(await signInWithPassword({ email, password: PASSWORD, address: address() })).toMatchObject({ ok: true });
  });
});

describe('issue 43.1: only the person who follows the mailed link chooses the password', () => {
  it('a sign-up asked by someone else for an invited address never gives that account the asker’s password', async () => {
    const inviter = (await createTenant({ name: `Inviting Inn ${suffix()}` })).id;
    const email = `victim-${suffix()}@example.com`;
    await inviteMember({ tenantId: inviter, email, name: 'Victim', role: 'manager', actor: TEST_ACTOR });
    // The attacker asks for a sign-up with the victim's address and sends a password of their choosing along.
    const attackerPassword = 'the attacker chose this';
    await ask({ ...form({ email }), next: attackerPassword, confirm: attackerPassword } as TSignUp);
    // The victim follows the link from their mailbox and types a password of their own there.
    const token = await tokenOf(email);
    await completeSignUp({ token, password: chosen });
    expect(await signInWithPassword({ email, password: attackerPassword, address: address() })).toMatchObject({
      ok: false,
    });
    expect(await signInWithPassword({ email, password: PASSWORD, address: address() })).toMatchObject({ ok: true });
  });

  it('leaves a sign-up nowhere to keep a password: no column, no argument', async () => {
    const { rows: columns } = await admin.query(
      `select column_name from information_schema.columns where table_name = 'sign_ups' and column_name ~ 'pass'`,
    );
    expect(columns).toEqual([]);
    const { rows: args } = await admin.query(
      `select pg_get_function_arguments(p.oid) as args from pg_proc p where p.proname = 'app_request_sign_up'`,
    );
    expect(args).toHaveLength(1);
    expect(args[0].args).not.toMatch(/pass/);
  });

  it('refuses a password the rules refuse on the link’s page, writing nothing, and the link still works', async () => {
    const input = form();
    await ask(input);
    const token = await tokenOf(input.email);
    for (const password of [
      { next: 'short', confirm: 'short' },
      { next: 'harbor house opens', confirm: 'harbor house closes' },
      { next: input.email, confirm: input.email },
    ]) {
      await expect(completeSignUp({ token, password })).rejects.toMatchObject({ code: 'invalid_request' });
    }
    await expect(completeSignUp({ token })).rejects.toMatchObject({ code: 'invalid_request' });
    expect(await written(input)).toEqual(NOTHING);
    expect(await completeSignUp({ token, password: chosen })).toMatchObject({ newAccount: true });
  });
});

describe('the mail', () => {
  let catcher: MailCatcher;
  beforeAll(async () => {
    catcher = await startMailCatcher({ onMail: storeCaughtMail });
    process.env.SMTP_URL = `smtp://127.0.0.1:${catcher.port}`;
  });
  afterAll(async () => {
    delete process.env.SMTP_URL;
    await catcher.close();
  });

  it('carries the link once, and is skipped once the sign-up is used', async () => {
    const input = form();
    await ask(input);
    const [row] = await rowsOf(input.email);
    const { rows } = await admin.query<{ id: string }>(`select id from account_messages where sign_up_id = $1`, [
      row!.id,
    ]);
    expect(await sendAccountMessage({ messageId: rows[0]!.id, attempt: 1, maxAttempts: 6 })).toBe('sent');
    const { rows: caught } = await admin.query(
      `select rcpt_to, subject, text_body from caught_account_mail where message_id = $1`,
      [rows[0]!.id],
    );
    expect(caught).toHaveLength(1);
    expect(caught[0].subject).toContain(input.organisationName);
    expect(caught[0].text_body).toContain(`/sign-up/${derivedToken('sign-up', row!.id)}`);

    await ask({ ...input });
    const later = (await rowsOf(input.email)).at(-1)!;
    await completeSignUp({ token: derivedToken('sign-up', later.id), password: chosen });
    const { rows: next } = await admin.query<{ id: string }>(`select id from account_messages where sign_up_id = $1`, [
      later.id,
    ]);
    expect(await sendAccountMessage({ messageId: next[0]!.id, attempt: 1, maxAttempts: 6 })).toBe('skipped');
  });
});
