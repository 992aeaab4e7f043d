import { expect, makeTenant, signInAs, test } from './fixtures';
import { mailedLink, signIn } from './helpers';

// Accounts through the browser (issue 28, item 6): a forgotten password reset by a mailed link, once,
// which ends the other sessions; a one-time password replaced before anything else; an existing
// account invited to a second tenant, which it joins only by accepting.

/** The sign-in form, filled and sent (where it leads is the test's to check). */
async function submitSignIn(page: import('@playwright/test').Page, email: string, password: string, path = '/sign-in') {
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function choosePassword(page: import('@playwright/test').Page, testId: string, password: string) {
  const form = page.getByTestId(testId);
  await form.getByLabel('New password', { exact: true }).fill(password);
  await form.getByLabel('New password again').fill(password);
  await form.getByTestId(`${testId}-submit`).click();
}

test('a forgotten password is reset by a mailed link, once, and every other session ends', async ({
  browser,
  baseURL,
  tenant,
}) => {
  // The desk is signed in on another device.
  const other = await browser.newContext({ baseURL });
  await signInAs(other, tenant.desk, baseURL!);
  const elsewhere = await other.newPage();
  await elsewhere.goto('/desk');
  await expect(elsewhere).toHaveURL(/\/desk$/);

  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto('/sign-in');
  await page.getByTestId('sign-in-forgot').click();
  await expect(page).toHaveURL(/\/password-reset$/);
  const asked = Date.now() - 1000;
  await page.getByLabel('Email').fill(tenant.desk.email);
  await page.getByTestId('reset-request-submit').click();
  await expect(page.getByTestId('reset-requested')).toContainText('If an account has this email');

  const link = await mailedLink(tenant.desk.email, 'password-reset', asked);
  await page.goto(link);
  await choosePassword(page, 'password-reset', 'a new password for the desk');
  await expect(page).toHaveURL(/\/sign-in\?passwordChanged=1$/);
  await expect(page.getByTestId('sign-in-password-changed')).toBeVisible();
  await signIn(page, tenant.desk.email, 'a new password for the desk');

  // The link worked once.
  await page.goto(link);
  await expect(page.getByTestId('reset-invalid')).toBeVisible();
  // The other device's session has ended.
  await elsewhere.goto('/desk');
  await expect(elsewhere).toHaveURL(/\/sign-in\?callbackUrl=%2Fdesk/);
  await context.close();
  await other.close();
});

test('a one-time password must be replaced before anything else, and then no longer works', async ({
  browser,
  baseURL,
}) => {
  const made = await makeTenant('One-time', 1, 'UTC', true, true);
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await submitSignIn(page, made.desk.email, made.desk.password, '/sign-in?callbackUrl=%2Fdesk');
  await expect(page).toHaveURL(/\/account\/password\?returnTo=%2Fdesk$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Choose your password' })).toBeVisible();
  // Nothing else opens first.
  await page.goto('/desk/bookings');
  await expect(page).toHaveURL(/\/account\/password/);

  await page.goto('/account/password?returnTo=%2Fdesk');
  await choosePassword(page, 'password-first', made.desk.password);
  await expect(page.getByTestId('password-first')).toContainText('different from the one you have');
  await choosePassword(page, 'password-first', 'my very own desk password');
  await expect(page).toHaveURL(/\/desk$/);
  await context.close();

  const again = await browser.newContext({ baseURL });
  const second = await again.newPage();
  await submitSignIn(second, made.desk.email, made.desk.password);
  await expect(second.getByRole('alert').filter({ hasText: 'incorrect' })).toBeVisible();
  await again.close();
});

test('an account is invited to a second tenant and joins it only by accepting, then switches between them', async ({
  browser,
  baseURL,
  tenant,
}) => {
  const second = await makeTenant('Second tenant');
  const inviter = await browser.newContext({ baseURL });
  await signInAs(inviter, second.manager, baseURL!);
  const staffPage = await inviter.newPage();
  await staffPage.goto('/manage/staff');
  const sent = Date.now() - 1000;
  await staffPage.getByTestId('member-email').fill(tenant.manager.email);
  await staffPage.getByTestId('member-name').fill('Visiting manager');
  await staffPage.getByTestId('member-role').selectOption('front_desk');
  await staffPage.getByTestId('member-create').click();
  // The same answer as for anyone: an invitation, pending — no password, no "already has an account".
  await expect(staffPage.getByTestId('member-created')).toContainText(`Invitation sent to ${tenant.manager.email}`);
  await expect(staffPage.getByTestId('invitation-row').filter({ hasText: tenant.manager.email })).toContainText(
    'Visiting manager',
  );
  await expect(staffPage.getByTestId('member-row').filter({ hasText: tenant.manager.email })).toHaveCount(0);

  const context = await browser.newContext({ baseURL });
  await signInAs(context, tenant.manager, baseURL!);
  const page = await context.newPage();
  // Until accepted, the second tenant is not theirs.
  await page.goto('/desk');
  await expect(page.getByLabel('Switch tenant')).toHaveCount(0);
  await page.goto(await mailedLink(tenant.manager.email, 'invitations', sent));
  await expect(page.getByTestId('invitation')).toContainText(`${second.name} invites ${tenant.manager.email}`);
  await page.getByTestId('invitation-accept').click();
  await expect(page).toHaveURL(/\/desk$/);
  await expect(page.getByText(`guests in house and departures of ${second.name}`)).toBeVisible();
  await page.getByLabel('Switch tenant').selectOption({ label: `${tenant.name} (Manager)` });
  await page.getByRole('button', { name: 'Switch', exact: true }).click();
  await expect(page.getByText(`guests in house and departures of ${tenant.name}`)).toBeVisible();

  await staffPage.reload();
  await expect(staffPage.getByTestId('member-row').filter({ hasText: tenant.manager.email })).toContainText(
    'Front desk',
  );
  await context.close();
  await inviter.close();
});

/** Invites `email` from the manager's staff page; returns when the invitation was sent (for `mailedLink`). */
async function invite(page: import('@playwright/test').Page, email: string, role: 'front_desk' | 'manager') {
  await page.goto('/manage/staff');
  const sent = Date.now() - 1000;
  await page.getByTestId('member-email').fill(email);
  await page.getByTestId('member-role').selectOption(role);
  await page.getByTestId('member-create').click();
  await expect(page.getByTestId('member-created')).toContainText(`Invitation sent to ${email}`);
  return sent;
}

const freshAddress = (who: string) =>
  `${who}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;

test('a new address accepts an invitation by choosing its own password, lands signed in as the invited role, once', async ({
  browser,
  baseURL,
  tenant,
  managerPage,
}) => {
  const email = freshAddress('newcomer');
  const sent = await invite(managerPage, email, 'front_desk');
  const link = await mailedLink(email, 'invitations', sent);

  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto(link);
  await expect(page.getByTestId('invitation')).toContainText(`${tenant.name} invites ${email}`);
  await choosePassword(page, 'invitation-activate', 'the newcomer’s own password');
  await expect(page).toHaveURL(/\/desk$/);
  await expect(page.getByText(`guests in house and departures of ${tenant.name}`)).toBeVisible();
  await page.goto('/account');
  await expect(page.getByTestId('account-teams')).toHaveText(`${tenant.name} · Front desk`);
  // A front desk member: the manage area is not theirs.
  await page.goto('/manage/staff');
  await expect(page).toHaveURL(/\/forbidden$/);

  // The link worked once.
  const later = await browser.newContext({ baseURL });
  const again = await later.newPage();
  await again.goto(link);
  await expect(again.getByTestId('invitation-invalid')).toBeVisible();
  await expect(again.getByTestId('invitation-activate')).toHaveCount(0);
  // And the password chosen from it signs in.
  await signIn(again, email, 'the newcomer’s own password');
  await expect(again).toHaveURL(/\/desk$/);

  await managerPage.reload();
  await expect(managerPage.getByTestId('member-row').filter({ hasText: email })).toContainText('Front desk');
  await expect(managerPage.getByTestId('invitation-row').filter({ hasText: email })).toHaveCount(0);
  await context.close();
  await later.close();
});

test('an invitation sent again has a new link, and the old one no longer opens', async ({
  browser,
  baseURL,
  managerPage,
}) => {
  const email = freshAddress('resent');
  const sent = await invite(managerPage, email, 'manager');
  const first = await mailedLink(email, 'invitations', sent);

  const resent = Date.now() - 500;
  const row = managerPage.getByTestId('invitation-row').filter({ hasText: email });
  await row.getByTestId('invitation-resend').click();
  await expect(row.getByTestId('invitation-resend-result')).toContainText(`A new invitation is on its way to ${email}`);
  const second = await mailedLink(email, 'invitations', resent);
  expect(second).not.toBe(first);

  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto(first);
  await expect(page.getByTestId('invitation-invalid')).toBeVisible();
  await page.goto(second);
  await expect(page.getByTestId('invitation-activate')).toBeVisible();
  await expect(page.getByTestId('invitation')).toContainText('Manager');
  await context.close();
});

test('a person’s own language on /account is the app’s language while signed in', async ({ deskPage }) => {
  await deskPage.goto('/account');
  await expect(deskPage.getByRole('heading', { level: 1 })).toHaveText('Your account');
  await deskPage.getByTestId('profile-name').fill('Hana');
  await deskPage.getByTestId('profile-locale').selectOption('ja');
  await deskPage.getByTestId('profile-save').click();
  await expect(deskPage.getByRole('heading', { level: 1 })).toHaveText('アカウント');
  await expect(deskPage.getByTestId('profile-name')).toHaveValue('Hana');
  // Every page follows, whatever the browser asks for.
  await deskPage.goto('/desk');
  await expect(deskPage.locator('html')).toHaveAttribute('lang', 'ja');
  await deskPage.goto('/account');
  await deskPage.getByTestId('profile-locale').selectOption('en');
  await deskPage.getByTestId('profile-save').click();
  await expect(deskPage.getByRole('heading', { level: 1 })).toHaveText('Your account');
});
