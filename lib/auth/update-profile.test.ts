import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { createStaffUser } from '../staff/create-staff-user';
import { createTenant } from '../staff/create-tenant';
import { inviteMember } from '../staff/invitations';
import { requestPasswordReset } from './password-reset';
import { loadStaffIdentity } from './staff';
import { ownLocale, setOwnLocale, updateProfile } from './update-profile';

// Issue 32, item 2: a person's own name and language; the language is the UI's when they are signed in, and
// their account mails' wherever the person is known.

let admin: pg.Client;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});

async function person() {
  const { id: tenantId } = await createTenant({ name: 'Profile Inn' });
  const email = `p-${randomBytes(4).toString('hex')}@example.com`;
  const { id } = await createStaffUser({ tenantId, email, password: 'a long password', role: 'front_desk' });
  return { id, email, tenantId };
}

describe('a person’s profile', () => {
  it('keeps the name and language they chose, and the signed-in identity carries the language', async () => {
    const { id } = await person();
    expect((await loadStaffIdentity(id, 0))?.user.locale).toBeNull();
    expect(await updateProfile({ userId: id, name: '  Hana Sato ', locale: 'ja' })).toEqual({
      name: 'Hana Sato',
      locale: 'ja',
    });
    expect((await loadStaffIdentity(id, 0))?.user).toMatchObject({ name: 'Hana Sato', locale: 'ja' });
    // The UI's language for the person's requests; a session that has ended (another generation) has none.
    expect(await ownLocale(id, 0)).toBe('ja');
    expect(await ownLocale(id, 1)).toBeNull();
    await setOwnLocale({ userId: id, locale: 'en' });
    const { rows } = await admin.query(`select name, locale from users where id = $1`, [id]);
    expect(rows[0]).toEqual({ name: 'Hana Sato', locale: 'en' });
  });

  it('holds only a supported language in the database', async () => {
    const { id } = await person();
    await expect(admin.query(`update users set locale = 'fr' where id = $1`, [id])).rejects.toMatchObject({
      code: '23514',
    });
    await expect(
      updateProfile({ userId: '00000000-0000-4000-8000-000000000000', name: '', locale: 'en' }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });

  it('writes the account mails of a person who chose a language in it, whatever the facility’s', async () => {
    const { id, email } = await person();
    await updateProfile({ userId: id, name: '', locale: 'ja' });
    const { id: other } = await createTenant({ name: 'Other Inn' });
    await inviteMember({ tenantId: other, email, name: '', role: 'manager', actor: TEST_ACTOR });
    await requestPasswordReset({ email, address: '10.9.0.1', locale: 'en' });
    const { rows } = await admin.query(
      `select kind::text, locale from account_messages where user_id = $1 order by kind`,
      [id],
    );
    expect(rows).toEqual([
      { kind: 'password_reset', locale: 'ja' },
      { kind: 'staff_invitation', locale: 'ja' },
    ]);
  });
});
