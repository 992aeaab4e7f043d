import { describe, expect, it } from 'vitest';
import { adminClient } from '../testing/fixtures';
import { createStaffUser, createTenant } from '../tenants/create-tenant';
import { MAX_FAILED_SIGN_INS, signInWithPassword } from './sign-in';

describe('signing in with a password', () => {
  it('accepts the right password, answers every failure alike, and locks after repeated failures', async () => {
    const tenant = await createTenant({ name: 'Sign-in' });
    const email = `front-${Date.now()}@example.com`;
    await createStaffUser({ tenantId: tenant.id, email, password: 'right password', role: 'front_desk' });

    expect(await signInWithPassword({ email: email.toUpperCase(), password: 'right password' })).toMatchObject({ ok: true });
    expect(await signInWithPassword({ email: 'nobody@example.com', password: 'x' })).toEqual({ ok: false });
    for (let i = 0; i < MAX_FAILED_SIGN_INS; i++) {
      expect(await signInWithPassword({ email, password: 'wrong' })).toEqual({ ok: false });
    }
    expect(await signInWithPassword({ email, password: 'right password' })).toEqual({ ok: false });
    const admin = await adminClient();
    const { rows } = await admin.query('select failed_sign_ins, locked_until > now() as locked from users where email = $1', [email]);
    await admin.end();
    expect(rows[0]).toEqual({ failed_sign_ins: MAX_FAILED_SIGN_INS, locked: true });
  });
});

describe('sign-in limits and audit', () => {
  it('audits failures in the account’s tenants and refuses an 11th attempt within 15 minutes, even with the right password', async () => {
    const tenant = await createTenant({ name: 'Limits' });
    const email = `limits-${Date.now()}@example.com`;
    await createStaffUser({ tenantId: tenant.id, email, password: 'right password', role: 'manager' });
    const admin = await adminClient();
    // Unlock between attempts so that only the rate limit can refuse.
    for (let i = 0; i < 10; i++) {
      await admin.query('update users set failed_sign_ins = 0, locked_until = null where email = $1', [email]);
      expect(await signInWithPassword({ email, password: i === 9 ? 'right password' : 'wrong', address: `192.0.2.${i}` })).toMatchObject({ ok: i === 9 });
    }
    await admin.query('update users set failed_sign_ins = 0, locked_until = null where email = $1', [email]);
    expect(await signInWithPassword({ email, password: 'right password', address: '192.0.2.99' })).toEqual({ ok: false });
    const { rows } = await admin.query(`select count(*)::int as n, min(reason) as reason from audit_events where tenant_id = $1 and action = 'user.sign_in_failed'`, [tenant.id]);
    expect(rows[0]).toEqual({ n: 9, reason: 'wrong_password' });
    await admin.end();
  });
});
