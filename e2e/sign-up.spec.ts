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

  // A password that breaks issue 13's rules is refused at its field, and nothing is sent.
  await page.getByTestId('sign-up-organisationName').fill(organisation);
  await page.getByTestId('sign-up-facilityName').fill('Seaside House');
  await page.getByTestId('sign-up-name').fill('Umi Tanaka');
  await page.getByTestId('sign-up-email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('short');
  await page.getByLabel('Password again').fill('short');
  await page.getByTestId('sign-up-submit').click();
  await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('sign-up-done')).toHaveCount(0);
  await expect(page.getByTestId('sign-up-organisationName')).toHaveValue(organisation);

  const sent = Date.now() - 1000;
  await page.getByLabel('Password', { exact: true }).fill('seaside house by the sea');
  await page.getByLabel('Password again').fill('seaside house by the sea');
  await page.getByTestId('sign-up-submit').click();
  await expect(page.getByTestId('sign-up-done')).toContainText('Check your mail');

  // The mail's link: what it opens, and one button that opens it.
  await page.goto(await mailedLink(email, 'sign-up', sent));
  await expect(page.getByTestId('sign-up-summary')).toContainText(organisation);
  await expect(page.getByTestId('sign-up-summary')).toContainText('Seaside House (Asia/Tokyo)');
  await page.getByTestId('sign-up-complete').click();

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
  await page.getByLabel('Password', { exact: true }).fill('whatever was typed here');
  await page.getByLabel('Password again').fill('whatever was typed here');
  await page.getByTestId('sign-up-submit').click();
  // The same answer as for a new email.
  await expect(page.getByTestId('sign-up-done')).toContainText('Check your mail');

  const link = await mailedLink(desk.email, 'sign-up', sent);
  await page.goto(link);
  await expect(page.getByTestId('sign-up-complete')).toHaveCount(0);
  await page.getByTestId('sign-up-sign-in').click();
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=/);
  await expect(page.getByLabel('Email')).toHaveValue(desk.email);
  // What the form was given opens nothing; the account's own password does.
  await page.getByLabel('Password').fill(desk.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`${link}$`));
  await page.getByTestId('sign-up-complete').click();
  await expect(page).toHaveURL(/\/manage\?welcome=1$/);
  await expect(page.getByTestId('sign-up-welcome')).toContainText(organisation);
  await expect(page.getByTestId('setup-step-facility')).toHaveAttribute('data-done', 'true');
});

test('a sign-up link that does not work says so, and writes nothing', async ({ page }) => {
  await page.goto(`/sign-up/${'A'.repeat(43)}`);
  await expect(page.getByTestId('sign-up-invalid')).toContainText('This link does not work any more');
  await expect(page.getByTestId('sign-up-complete')).toHaveCount(0);
  await page.getByRole('link', { name: 'Sign up again' }).click();
  await expect(page).toHaveURL(/\/sign-up$/);
});
