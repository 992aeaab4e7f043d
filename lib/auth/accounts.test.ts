import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaffUser } from '../staff/create-staff-user';
import { createTenant } from '../staff/create-tenant';
import { resetToken } from '../../tooling/testing/accounts';
import { adminClient } from '../../tooling/testing/fixtures';
import { changeOwnPassword } from './change-password';
import { passwordProblem } from './password';
import { requestPasswordReset, resetAccountEmail, resetPassword } from './password-reset';
import { signInWithPassword } from './sign-in';
import { loadStaffIdentity } from './staff';

// Issue 28, item 6: one-time passwords expire and are replaced first; everyone can change their
// password and reset it by a mailed link; a change ends every other session.

let admin: pg.Client;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});

const PASSWORD = 'the first password';
let n = 0;
const addr = () => `192.0.2.${(n = (n + 1) % 250)}-${randomBytes(3).toString('hex')}`;

async function account() {
  const tenantId = (await createTenant({ name: 'Accounts Inn' })).id;
  const email = `member-${randomBytes(4).toString('hex')}@example.com`;
  const { id } = await createStaffUser({ tenantId, email, password: PASSWORD, role: 'front_desk' });
  return { id, email, tenantId };
}

const signIn = (email: string, password: string) => signInWithPassword({ email, password, address: addr() });

describe('a one-time password (one a manager chose and saw)', () => {
  async function oneTime(expiresInHours: number) {
    const user = await account();
    await admin.query(
      `update users set password_one_time = true, password_expires_at = now() + make_interval(hours => $2) where id = $1`,
      [user.id, expiresInHours],
    );
    return user;
  }

  it('is refused once past its 72 hours, like a wrong password', async () => {
    const user = await oneTime(-1);
    expect(await signIn(user.email, PASSWORD)).toEqual({ ok: false });
  });

  it('opens a session that must choose its own password first, which then works and the one-time one not', async () => {
    const user = await oneTime(10);
    const first = await signIn(user.email, PASSWORD);
    expect(first).toMatchObject({ ok: true, user: { mustChangePassword: true } });
    const generation = first.ok ? first.user.sessionGeneration : -1;
    expect(await loadStaffIdentity(user.id, generation)).toMatchObject({ mustChangePassword: true });

    const same = await changeOwnPassword({
      user,
      sessionGeneration: generation,
      mustChangePassword: true,
      next: PASSWORD,
    });
    expect(same).toEqual({ ok: false, refusal: 'same_as_current' });
    const chosen = await changeOwnPassword({
      user,
      sessionGeneration: generation,
      mustChangePassword: true,
      next: 'a password of my own',
    });
    expect(chosen).toEqual({ ok: true, sessionGeneration: generation + 1 });
    expect(await loadStaffIdentity(user.id, generation + 1)).toMatchObject({ mustChangePassword: false });
    expect(await signIn(user.email, PASSWORD)).toEqual({ ok: false });
    expect(await signIn(user.email, 'a password of my own')).toMatchObject({
      ok: true,
      user: { mustChangePassword: false },
    });
  });
});

describe('the one-time passwords managers were shown before invitations', () => {
  it('are flagged by the migration: replaced at the next sign-in, refused 72 h on; chosen passwords are not', async () => {
    const sql = readFileSync('prisma/migrations/20261204220000_staff_accounts/migration.sql', 'utf8');
    const flag = /update users u\s+set password_one_time = true[\s\S]*?;\n/.exec(sql)?.[0];
    expect(flag).toBeDefined();
    const byManager = await account();
    const byCli = await account();
    for (const [user, actor] of [
      [byManager, 'user'],
      [byCli, 'system'],
    ] as const)
      await admin.query(
        `insert into audit_events (tenant_id, actor_type, actor_id, actor_label, action, subject_type, subject_id, metadata)
         values ($1, $2::actor_type, null, 'x', 'member.created', 'user', $3, '{"newAccount": true}')`,
        [user.tenantId, actor, user.id],
      );
    await admin.query(flag!);
    const { rows } = await admin.query(
      `select id, password_one_time, password_expires_at > now() + interval '71 hours' as expires_in_72h
         from users where id = any($1) order by id = $2 desc`,
      [[byManager.id, byCli.id], byManager.id],
    );
    expect(rows).toEqual([
      { id: byManager.id, password_one_time: true, expires_in_72h: true },
      { id: byCli.id, password_one_time: false, expires_in_72h: null },
    ]);
    expect(await signIn(byManager.email, PASSWORD)).toMatchObject({ ok: true, user: { mustChangePassword: true } });
  });
});

describe('changing one’s password', () => {
  it('needs the current password, and ends every other session of the account', async () => {
    const user = await account();
    const [laptop, phone] = [await signIn(user.email, PASSWORD), await signIn(user.email, PASSWORD)];
    const generation = laptop.ok ? laptop.user.sessionGeneration : -1;
    expect(phone).toMatchObject({ ok: true, user: { sessionGeneration: generation } });

    const wrong = await changeOwnPassword({
      user,
      sessionGeneration: generation,
      mustChangePassword: false,
      current: 'not it',
      next: 'a brand new password',
    });
    expect(wrong).toEqual({ ok: false, refusal: 'current_wrong' });
    expect(await loadStaffIdentity(user.id, generation)).not.toBeNull();

    const changed = await changeOwnPassword({
      user,
      sessionGeneration: generation,
      mustChangePassword: false,
      current: PASSWORD,
      next: 'a brand new password',
    });
    expect(changed).toEqual({ ok: true, sessionGeneration: generation + 1 });
    // The phone's session (the old generation) is refused on its next request; the laptop's is re-issued.
    expect(await loadStaffIdentity(user.id, generation)).toBeNull();
    expect(await loadStaffIdentity(user.id, generation + 1)).toMatchObject({ user: { id: user.id } });
    // An ended session cannot change the password again.
    await expect(
      changeOwnPassword({
        user,
        sessionGeneration: generation,
        mustChangePassword: false,
        current: 'a brand new password',
        next: 'yet another password',
      }),
    ).rejects.toMatchObject({ code: 'unauthorized' });
    expect(await signIn(user.email, 'a brand new password')).toMatchObject({ ok: true });
    const { rows } = await admin.query(`select action from audit_events where tenant_id = $1 and subject_id = $2`, [
      user.tenantId,
      user.id,
    ]);
    expect(rows.map((r) => r.action)).toContain('user.password_changed');
  });

  it('keeps to the rules: long enough, not the email, not the current one', async () => {
    expect(passwordProblem('short', 'a@example.com')).toBe('too_short');
    // Full-width letters count as what they normalise to.
    expect(passwordProblem('ｓｈｏｒｔ', 'a@example.com')).toBe('too_short');
    expect(passwordProblem('x'.repeat(1025), 'a@example.com')).toBe('too_long');
    expect(passwordProblem('Kana.Clerk@Example.com', 'kana.clerk@example.com')).toBe('is_email');
    expect(passwordProblem('kana.clerk', 'kana.clerk@example.com')).toBe('is_email');
    expect(passwordProblem('correct horse battery', 'kana.clerk@example.com')).toBeNull();
    const user = await account();
    const first = await signIn(user.email, PASSWORD);
    const generation = first.ok ? first.user.sessionGeneration : -1;
    const base = { user, sessionGeneration: generation, mustChangePassword: false, current: PASSWORD };
    expect(await changeOwnPassword({ ...base, next: PASSWORD })).toEqual({ ok: false, refusal: 'same_as_current' });
    expect(await changeOwnPassword({ ...base, next: 'short' })).toEqual({ ok: false, refusal: 'too_short' });
    expect(await loadStaffIdentity(user.id, generation)).not.toBeNull();
  });
});

describe('resetting a password by a mailed link', () => {
  it('answers the same whether or not the email has an account, and makes a link only for one that has', async () => {
    const user = await account();
    const unknown = `nobody-${randomBytes(4).toString('hex')}@example.com`;
    const answers = [
      await requestPasswordReset({ email: user.email, address: addr(), locale: 'en' }),
      await requestPasswordReset({ email: unknown, address: addr(), locale: 'en' }),
    ];
    expect(answers[0]).toEqual(answers[1]);
    const { rows } = await admin.query(
      `select m.to_address, m.kind::text from account_messages m where m.to_address = any($1)`,
      [[user.email, unknown]],
    );
    expect(rows).toEqual([{ to_address: user.email, kind: 'password_reset' }]);
  });

  it('works once, for one hour, and ends every session of the account', async () => {
    const user = await account();
    const before = await signIn(user.email, PASSWORD);
    const generation = before.ok ? before.user.sessionGeneration : -1;
    await requestPasswordReset({ email: user.email.toUpperCase(), address: addr(), locale: 'ja' });
    const token = await resetToken(admin, user.email);
    expect(await resetAccountEmail(token)).toBe(user.email);

    expect(await resetPassword({ token, password: 'reset to this one' })).toEqual({
      userId: user.id,
      email: user.email,
    });
    await expect(resetPassword({ token, password: 'and again to this' })).rejects.toMatchObject({ code: 'not_found' });
    expect(await resetAccountEmail(token)).toBeNull();
    expect(await loadStaffIdentity(user.id, generation)).toBeNull();
    expect(await signIn(user.email, PASSWORD)).toEqual({ ok: false });
    expect(await signIn(user.email, 'reset to this one')).toMatchObject({ ok: true });

    // An hour later a link is dead, and the database holds the hour whoever writes.
    await requestPasswordReset({ email: user.email, address: addr(), locale: 'en' });
    const late = await resetToken(admin, user.email);
    await admin.query(
      `update password_resets set created_at = created_at - interval '61 minutes', expires_at = expires_at - interval '61 minutes'
        where user_id = $1 and used_at is null`,
      [user.id],
    );
    await expect(resetPassword({ token: late, password: 'too late for this' })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(
      admin.query(`update password_resets set expires_at = created_at + interval '2 hours' where user_id = $1`, [
        user.id,
      ]),
    ).rejects.toMatchObject({ code: '23514' });
  });

  it('ends the earlier link when a newer one is asked for, and refuses a link used twice at once but once', async () => {
    const user = await account();
    await requestPasswordReset({ email: user.email, address: addr(), locale: 'en' });
    const first = await resetToken(admin, user.email);
    await requestPasswordReset({ email: user.email, address: addr(), locale: 'en' });
    const second = await resetToken(admin, user.email);
    await expect(resetPassword({ token: first, password: 'from the old mail' })).rejects.toMatchObject({
      code: 'not_found',
    });
    const outcomes = await Promise.allSettled([
      resetPassword({ token: second, password: 'racer number one' }),
      resetPassword({ token: second, password: 'racer number two' }),
    ]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
  });

  it('is limited per email and per address, for every email alike', async () => {
    const address = addr();
    const unknown = `nobody-${randomBytes(4).toString('hex')}@example.com`;
    for (let i = 0; i < 3; i++) await requestPasswordReset({ email: unknown, address, locale: 'en' });
    await expect(requestPasswordReset({ email: unknown, address: addr(), locale: 'en' })).rejects.toMatchObject({
      code: 'rate_limited',
    });
  });
});
