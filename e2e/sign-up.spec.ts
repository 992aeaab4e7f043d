import { expect, test } from './fixtures';
import { bookNight, mailedLink } from './helpers';

// Issue 32, items 1 and 7: a new person signs up in the browser, proves the email by the mailed link,
// lands on the manager's screen with the first-run checklist, and — without the CLI — gives the
// facility a room with a door (a simulated lock: the e2e install runs its lock simulator), makes the
// first booking at the desk, chooses payment at the property and publishes the booking site, watching
// the checklist tick until it is done and goes away.

const DAY = 86_400_000;

test('a new organisation signs up, proves its email and sets itself up from the checklist', async ({ page }) => {
  const id = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  const email = `owner-${id}@example.com`;
  const organisation = `Seaside Stays ${id}`;

  // The home page and the sign-in page lead to sign-up (the e2e install leaves SIGN_UP open).
  await page.goto('/');
  await page.getByTestId('home-sign-up').click();
  await expect(page).toHaveURL(/\/sign-up$/);
  await expect(page.getByText('The link works once, for 24 hours.')).toBeVisible();
  await expect(page.getByTestId('sign-up-timeZone')).toHaveValue('Asia/Tokyo');
  // Current IANA names only (ICU still lists "Asia/Calcutta").
  await expect(page.getByTestId('sign-up-timeZone').locator('option[value="Asia/Kolkata"]')).toHaveCount(1);
  await expect(page.getByTestId('sign-up-timeZone').locator('option[value="Asia/Calcutta"]')).toHaveCount(0);

  // The form asks no password: it is chosen on the mailed link's page, by whoever follows it (issue 43.1).
  await expect(page.getByTestId('sign-up').getByLabel(/password/i)).toHaveCount(0);
  await page.getByTestId('sign-up-organisationName').fill(organisation);
  await page.getByTestId('sign-up-facilityName').fill('Seaside House');
  await page.getByTestId('sign-up-name').fill('Umi Tanaka');
  await page.getByTestId('sign-up-email').fill(email);
  const sent = Date.now() - 1000;
  await page.getByTestId('sign-up-submit').click();
  await expect(page.getByTestId('sign-up-done')).toContainText('Check your mail');

  // The mail's link: what it opens, the account's password, and one button that opens it.
  await page.goto(await mailedLink(email, 'sign-up', sent));
  await expect(page.getByTestId('sign-up-summary')).toContainText(organisation);
  await expect(page.getByTestId('sign-up-summary')).toContainText('Seaside House (Asia/Tokyo)');
  const complete = page.getByTestId('sign-up-complete');
  // A password that breaks issue 13's rules is refused at its field, and nothing is opened.
  await complete.getByLabel('Password', { exact: true }).fill('short');
  await complete.getByLabel('Password again').fill('short');
  await complete.getByTestId('sign-up-complete-submit').click();
  await expect(complete.getByLabel('Password', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveURL(/\/sign-up\/[A-Za-z0-9_-]{43}$/);
  await complete.getByLabel('Password', { exact: true }).fill('seaside house by the sea');
  await complete.getByLabel('Password again').fill('seaside house by the sea');
  await complete.getByTestId('sign-up-complete-submit').click();

  // Signed in, on the manager's screen, with the checklist: the facility is there, the rest to do.
  await expect(page).toHaveURL(/\/manage\?welcome=1$/);
  await expect(page.getByTestId('sign-up-welcome')).toContainText(organisation);
  const checklist = page.getByTestId('setup-checklist');
  const step = (name: string) => checklist.getByTestId(`setup-step-${name}`);
  await expect(checklist.getByTestId('setup-progress')).toHaveText(/^1 of 6 steps done/);
  await expect(step('facility')).toHaveAttribute('data-done', 'true');
  for (const name of ['rooms', 'doors', 'channels', 'payments', 'staff'])
    await expect(step(name)).toHaveAttribute('data-done', 'false');

  // Rooms: from the checklist's link.
  await step('rooms').getByRole('link', { name: 'Add rooms' }).click();
  await expect(page).toHaveURL(/\/manage\/rooms$/);
  await page.getByTestId('room-label').fill('201');
  await page.getByTestId('room-rate').fill('12000');
  await page.getByTestId('room-currency').fill('JPY');
  await page.getByTestId('room-rateUnit').selectOption('night');
  await page.getByTestId('room-save').click();
  await expect(page.getByTestId('room-result')).toHaveText('Room added.');

  // Doors: a simulated lock, put on room 201's door.
  await page.goto('/manage');
  await expect(step('rooms')).toHaveAttribute('data-done', 'true');
  await step('doors').getByRole('link', { name: 'Connect locks' }).click();
  await expect(page).toHaveURL(/\/manage\/locks$/);
  await page.getByTestId('locks-simulated-add').click();
  await expect(page.getByTestId('locks-simulated-result')).toContainText('Simulated lock');
  const card = page.getByTestId('lock-card');
  await expect(card).toHaveCount(1);
  await card.getByTestId('lock-add-door').locator('summary').click();
  await card.getByTestId('lock-add-door-room').selectOption({ label: '201' });
  await card.getByTestId('lock-add-door-submit').click();
  await expect(card.getByTestId('lock-door')).toContainText('Room 201');

  // The first booking, at the desk: its key goes on the new door.
  const guestName = `First Guest ${id}`;
  await bookNight(page, { day: new Date(Date.now() + 2 * DAY), guestName });
  await page.goto('/manage/locks');
  const code = page.getByTestId('lock-card').getByTestId('lock-code').filter({ hasText: guestName });
  await expect(async () => {
    await page.reload();
    await expect(code.getByTestId('lock-code-state')).toHaveText('Set on lock', { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });

  await page.goto('/manage');
  await expect(step('doors')).toHaveAttribute('data-done', 'true');
  await expect(checklist.getByTestId('setup-progress')).toHaveText(/^3 of 6 steps done/);

  // Payments at the property, and the booking site published: both from the facility's page.
  await step('payments').getByRole('link', { name: 'Choose payments' }).click();
  await expect(page).toHaveURL(/\/manage\/facilities\/[0-9a-f-]{36}$/);
  await page.getByTestId('facility-paymentMode').selectOption('at_property');
  await page.getByTestId('facility-options-save').click();
  await expect(page.getByTestId('facility-options-result')).toBeVisible();
  await page.getByTestId('facility-slug').fill(`seaside-${id}`);
  await page.getByTestId('facility-publish').click();
  await expect(page.getByTestId('facility-publish-result')).toBeVisible();
  await page.goto('/manage');
  await expect(step('payments')).toHaveAttribute('data-done', 'true');
  await expect(step('channels')).toHaveAttribute('data-done', 'true');

  // Staff: an invitation; then every step is done and the checklist steps aside.
  await step('staff').getByRole('link', { name: 'Invite staff' }).click();
  await page.getByTestId('member-email').fill(`desk-${id}@example.com`);
  await page.getByTestId('member-name').fill('Desk Clerk');
  await page.getByTestId('member-role').selectOption('front_desk');
  await page.getByTestId('member-create').click();
  await expect(page.getByTestId('member-created')).toContainText('Invitation sent');
  await page.goto('/manage');
  await expect(page.getByTestId('overview-now')).toBeVisible();
  await expect(page.getByTestId('setup-checklist')).toHaveCount(0);
});

test('an email that already has an account signs in as it and manages the new organisation, with no second account', async ({
  page,
  tenant,
}) => {
  const desk = tenant.desk;
  const organisation = `Second Venture ${tenant.id.slice(0, 8)}`;
  await page.goto('/sign-in');
  await page.getByTestId('sign-in-sign-up').click();
  const sent = Date.now() - 1000;
  await page.getByTestId('sign-up-organisationName').fill(organisation);
  await page.getByTestId('sign-up-facilityName').fill('Venture Loft');
  await page.getByTestId('sign-up-timeZone').selectOption('Europe/Kyiv');
  await page.getByTestId('sign-up-name').fill('Desk Person');
  await page.getByTestId('sign-up-email').fill(desk.email);
  await page.getByTestId('sign-up-submit').click();
  // The same answer as for a new email.
  await expect(page.getByTestId('sign-up-done')).toContainText('Check your mail');

  const link = await mailedLink(desk.email, 'sign-up', sent);
  await page.goto(link);
  await expect(page.getByTestId('sign-up-complete')).toHaveCount(0);
  await page.getByTestId('sign-up-sign-in').click();
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=/);
  await expect(page.getByLabel('Email')).toHaveValue(desk.email);
  // The account's own password; the link's page then asks for none.
  await page.getByLabel('Password').fill(desk.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`${link}$`));
  await expect(page.getByTestId('sign-up-complete').getByLabel(/password/i)).toHaveCount(0);
  await page.getByTestId('sign-up-complete-submit').click();
  await expect(page).toHaveURL(/\/manage\?welcome=1$/);
  await expect(page.getByTestId('sign-up-welcome')).toContainText(organisation);
  await expect(page.getByTestId('setup-step-facility')).toHaveAttribute('data-done', 'true');
});

test('an attacker’s sign-up with an invited address never gives the attacker that account (issue 43.1)', async ({
  browser,
  baseURL,
  managerPage,
  tenant,
}) => {
  // A manager invites the victim: the account exists, with no password yet.
  const victim = `victim-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
  await managerPage.goto('/manage/staff');
  await managerPage.getByTestId('member-email').fill(victim);
  await managerPage.getByTestId('member-role').selectOption('manager');
  await managerPage.getByTestId('member-create').click();
  await expect(managerPage.getByTestId('member-created')).toContainText(`Invitation sent to ${victim}`);

  // The attacker signs up with the victim's address and, since the form has no password field, slips one in.
  const attackerPassword = 'the attacker chose this one';
  const attacker = await browser.newContext({ baseURL });
  const attackerPage = await attacker.newPage();
  await attackerPage.goto('/sign-up');
  await attackerPage.waitForLoadState('networkidle');
  await attackerPage.getByTestId('sign-up-organisationName').fill('Not Yours Ltd');
  await attackerPage.getByTestId('sign-up-facilityName').fill('Trap House');
  await attackerPage.getByTestId('sign-up-name').fill('Victim');
  await attackerPage.getByTestId('sign-up-email').fill(victim);
  await attackerPage.getByTestId('sign-up').evaluate((form, password) => {
    for (const name of ['next', 'confirm']) {
      const input = document.createElement('input');
      input.type = 'hidden';
      input.name = name;
      input.value = password;
      form.appendChild(input);
    }
  }, attackerPassword);
  const sent = Date.now() - 1000;
  await attackerPage.getByTestId('sign-up-submit').click();
  await expect(attackerPage.getByTestId('sign-up-done')).toContainText('Check your mail');

  // The victim gets "Confirm your email", follows the link and must type a password of their own to continue.
  const victimContext = await browser.newContext({ baseURL });
  const victimPage = await victimContext.newPage();
  await victimPage.goto(await mailedLink(victim, 'sign-up', sent));
  const complete = victimPage.getByTestId('sign-up-complete');
  await complete.getByLabel('Password', { exact: true }).fill('the victim’s own password');
  await complete.getByLabel('Password again').fill('the victim’s own password');
  await complete.getByTestId('sign-up-complete-submit').click();
  await expect(victimPage).toHaveURL(/\/manage\?welcome=1$/);

  // The attacker's password is refused; the victim's works and is the only way into the invitation.
  await attackerPage.goto('/sign-in?callbackUrl=%2Fdesk');
  await attackerPage.waitForLoadState('networkidle');
  await attackerPage.getByLabel(/email/i).fill(victim);
  await attackerPage.getByLabel(/password/i).fill(attackerPassword);
  await attackerPage.getByRole('button', { name: /sign in/i }).click();
  await expect(attackerPage.locator('#sign-in-error')).toHaveText(/.+/);
  await expect(attackerPage).toHaveURL(/\/sign-in/);
  await attackerPage.goto('/account');
  await expect(attackerPage).toHaveURL(/\/sign-in/);
  await expect(attackerPage.getByText(tenant.name)).toHaveCount(0);
  await attacker.close();
  await victimContext.close();
});

test('a sign-up link that does not work says so, and writes nothing', async ({ page }) => {
  await page.goto(`/sign-up/${'A'.repeat(43)}`);
  await expect(page.getByTestId('sign-up-invalid')).toContainText('This link does not work any more');
  await expect(page.getByTestId('sign-up-complete')).toHaveCount(0);
  await page.getByRole('link', { name: 'Sign up again' }).click();
  await expect(page).toHaveURL(/\/sign-up$/);
});
