import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { derivedToken } from '@/lib/auth/guest-links';
import { createStaffUser } from '@/lib/staff/create-staff-user';
import { createTenant } from '@/lib/staff/create-tenant';
import { adminClient } from '@/tooling/testing/fixtures';

// As in app/manage/setup-actions.test.ts: only the Next.js request is replaced (session, cookies,
// headers); the actions, the domain and the database are real.
const request = vi.hoisted(() => ({ userId: null as string | null, cookies: new Map<string, string>() }));
vi.mock('server-only', () => ({}));
vi.mock('next-auth', () => ({
  getServerSession: async () => (request.userId ? { userId: request.userId } : null),
}));
vi.mock('next/headers', () => ({
  cookies: async () => ({
    get: () => undefined,
    has: () => false,
    set: (name: string, value: string) => request.cookies.set(name, value),
  }),
  headers: async () => new Headers({ 'accept-language': 'en', 'x-forwarded-for': '10.9.9.9' }),
}));
vi.mock('next/cache', () => ({ revalidatePath: () => {} }));

const { requestSignUpAction, completeSignUpAction } = await import('@/app/sign-up/actions');

let admin: pg.Client;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});
afterEach(() => {
  delete process.env.SIGN_UP;
  request.userId = null;
  request.cookies.clear();
});

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

const signUpForm = (email: string) => ({
  organisationName: `Action Inn ${randomBytes(3).toString('hex')}`,
  facilityName: 'Action House',
  timeZone: 'Asia/Tokyo',
  name: 'Ai',
  email,
});
const PASSWORD = 'a long enough phrase';
const emailOf = (who: string) => `${who}-${randomBytes(4).toString('hex')}@example.com`;
const signUpsOf = async (email: string) =>
  (await admin.query<{ id: string }>(`select id from sign_ups where email = $1`, [email])).rows;

describe('the sign-up actions', () => {
  it('answer "sent" alike for a new email and one with an account, and refuse a bad field at its place', async () => {
    const fresh = emailOf('fresh');
    expect(await requestSignUpAction(null, form(signUpForm(fresh)))).toMatchObject({ ok: true, data: { sent: true } });
    const tenantId = (await createTenant({ name: 'Has accounts' })).id;
    const known = emailOf('known');
    await createStaffUser({ tenantId, email: known, password: 'known person’s password', role: 'manager' });
    expect(await requestSignUpAction(null, form(signUpForm(known)))).toMatchObject({ ok: true, data: { sent: true } });

    const zone = emailOf('zone');
    expect(await requestSignUpAction(null, form({ ...signUpForm(zone), timeZone: 'Nowhere/Land' }))).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', fieldErrors: { timeZone: expect.any(String) } },
      values: { email: zone, facilityName: 'Action House' },
    });
    expect(await signUpsOf(zone)).toEqual([]);
  });

  it('ask for the password on the link’s page and refuse a bad one at its field, opening nothing', async () => {
    const email = emailOf('choose');
    // A password sent along with the sign-up is not kept anywhere (issue 43.1).
    await requestSignUpAction(null, form({ ...signUpForm(email), next: 'sent along', confirm: 'sent along' }));
    const [row] = await signUpsOf(email);
    const token = derivedToken('sign-up', row!.id);
    expect(await completeSignUpAction(null, form({ token }))).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', field: 'next' },
    });
    expect(await completeSignUpAction(null, form({ token, next: 'short', confirm: 'short' }))).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', field: 'next', message: 'At least 8 characters.' },
    });
    expect(
      await completeSignUpAction(null, form({ token, next: PASSWORD, confirm: 'another long phrase' })),
    ).toMatchObject({ ok: false, error: { field: 'confirm', message: 'The two new passwords differ.' } });
    const { rows } = await admin.query(`select count(*)::int as n from users where email = $1`, [email]);
    expect(rows[0].n).toBe(0);
    expect(request.cookies.size).toBe(0);
  });

  it('follow the link once: the new account is signed in and works in its new tenant', async () => {
    const email = emailOf('link');
    await requestSignUpAction(null, form(signUpForm(email)));
    const [row] = await signUpsOf(email);
    const token = derivedToken('sign-up', row!.id);
    await expect(completeSignUpAction(null, form({ token, next: PASSWORD, confirm: PASSWORD }))).rejects.toMatchObject({
      digest: expect.stringContaining('/manage?welcome=1'),
    });
    expect(request.cookies.get('next-auth.session-token')).toEqual(expect.any(String));
    const { rows } = await admin.query(
      `select m.tenant_id, m.role::text from memberships m join users u on u.id = m.user_id where u.email = $1`,
      [email],
    );
    expect(rows).toEqual([{ tenant_id: request.cookies.get('unlockos_tenant'), role: 'manager' }]);
    expect(await completeSignUpAction(null, form({ token, next: PASSWORD, confirm: PASSWORD }))).toMatchObject({
      ok: false,
      error: { code: 'not_found', message: expect.stringContaining('does not work any more') },
    });
  });

  it('with SIGN_UP=closed, refuse both steps and write nothing', async () => {
    const email = emailOf('closed');
    await requestSignUpAction(null, form(signUpForm(email)));
    const [row] = await signUpsOf(email);
    process.env.SIGN_UP = 'closed';
    const other = emailOf('closed-other');
    expect(await requestSignUpAction(null, form(signUpForm(other)))).toMatchObject({
      ok: false,
      error: { code: 'forbidden', message: expect.stringContaining('Sign-up is closed') },
    });
    expect(await signUpsOf(other)).toEqual([]);
    expect(await completeSignUpAction(null, form({ token: derivedToken('sign-up', row!.id) }))).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
    const { rows } = await admin.query(`select count(*)::int as n from users where email = $1`, [email]);
    expect(rows[0].n).toBe(0);
    expect(request.cookies.size).toBe(0);
  });
});
