import { expect, test } from './fixtures';
import { mailedLink } from './helpers';

// A manager of a brand-new tenant sets up a property from nothing, without the CLI: a facility in
// Tokyo with its times and guest information in both languages, a room with a nightly rate, a
// Calendly event type mapped to it and a front-desk member — whose booking form then offers the room.
test.describe('a brand-new tenant', () => {
  test.use({ facility: false });

  test('a manager sets up a facility, a room, a booking source and a front-desk member from nothing', async ({
    managerPage: page,
    browser,
    baseURL,
    tenant,
  }) => {
    // A tenant with no facility is told where to start.
    await page.goto('/manage/facilities');
    await expect(page.getByTestId('facilities-empty')).toContainText('No facilities yet');
    await page.getByRole('link', { name: 'Add your first facility' }).click();
    await expect(page).toHaveURL(/\/manage\/facilities\/new$/);

    // Invalid input: the errors stand next to their fields, and nothing is created.
    await page.getByTestId('facility-name').fill('   ');
    await page.getByTestId('facility-bookingUnit').selectOption('hour');
    await page.getByTestId('facility-opensAt').fill('18:00');
    await page.getByTestId('facility-closesAt').fill('09:00');
    await page.getByTestId('facility-save').click();
    await expect(page.getByTestId('facility-form-error')).toHaveText(
      'Nothing was saved. Correct the fields marked below.',
    );
    await expect(page.getByLabel('Name', { exact: true })).toHaveAccessibleDescription('Enter a name.');
    await expect(page.getByLabel('Closes at')).toHaveAccessibleDescription('Closing time must be after opening time.');
    await expect(page.getByTestId('facility-opensAt')).toHaveValue('18:00');
    await page.goto('/manage/facilities');
    await expect(page.getByTestId('facilities-empty')).toBeVisible();

    // The facility: Tokyo, by the night, its times, the door's information in English and Japanese.
    await page.getByRole('link', { name: 'Add your first facility' }).click();
    await page.getByTestId('facility-name').fill('Harbor House');
    await page.getByTestId('facility-timeZone').fill('Asia/Tokyo');
    await page.getByTestId('facility-checkInTime').fill('16:00');
    await page.getByTestId('facility-checkOutTime').fill('10:30');
    await page.getByTestId('facility-address').fill('1-2-3 Kaigan, Minato, Tokyo');
    await page.getByTestId('facility-phone').fill('+81 3 1234 5678');
    await page.getByTestId('facility-en-keypad').fill('Touch the keypad to wake it, enter your PIN, then press ✓.');
    await page.getByTestId('facility-en-wifiName').fill('harbor-guest');
    await page.getByTestId('facility-ja-keypad').fill('キーパッドに触れてPINを入力し、✓を押してください。');
    await page.getByTestId('facility-ja-houseRules').fill('22時以降はお静かに。');
    await page.getByTestId('facility-save').click();
    await expect(page).toHaveURL(/\/manage\/rooms\?facility=.+&created=facility/);
    await expect(page.getByTestId('facility-created')).toHaveText('Facility created. Now add its rooms.');

    // A room with a nightly rate.
    await page.getByTestId('room-label').fill('301');
    await page.getByTestId('room-rate').fill('15000');
    await page.getByTestId('room-currency').fill('JPY');
    await page.getByTestId('room-rateUnit').selectOption('night');
    await page.getByTestId('room-rateName').fill('Harbor view');
    await page.getByTestId('room-save').click();
    await expect(page.getByTestId('room-result')).toHaveText('Room added.');
    const row = page.getByTestId('room-row').filter({ hasText: '301' });
    await expect(row).toContainText('¥15,000 a night');
    await expect(row).toContainText('Harbor view');

    // The facility reads back as saved, both languages included.
    await page.goto('/manage/facilities');
    await expect(page.getByTestId('facility-row')).toContainText('By the night, check-in 16:00, check-out 10:30');
    await page.getByRole('link', { name: 'Edit Harbor House' }).click();
    await expect(page.getByTestId('facility-timeZone')).toHaveValue('Asia/Tokyo');
    await expect(page.getByTestId('facility-ja-houseRules')).toHaveValue('22時以降はお静かに。');

    // A Calendly event type mapped to the room.
    await page.goto('/manage/booking-sources');
    await page.getByTestId('booking-source-provider').selectOption('calendly');
    await page.getByTestId('booking-source-eventType').fill('https://api.calendly.com/event_types/HARBOR301');
    await page.getByTestId('booking-source-room').selectOption({ label: '301 · Harbor House' });
    await page.getByTestId('booking-source-add').click();
    await expect(page.getByTestId('booking-source-result')).toContainText('Event type mapped');
    await expect(page.getByTestId('booking-source-row')).toContainText(
      'https://api.calendly.com/event_types/HARBOR301',
    );

    // A front-desk member, invited by mail: they choose their password from the link and join.
    await page.goto('/manage/staff');
    const email = `clerk-${tenant.id.slice(0, 8)}@example.com`;
    const sent = Date.now() - 1000;
    await page.getByTestId('member-email').fill(email);
    await page.getByTestId('member-name').fill('Clerk Kana');
    await page.getByTestId('member-role').selectOption('front_desk');
    await page.getByTestId('member-create').click();
    await expect(page.getByTestId('member-created')).toContainText(`Invitation sent to ${email}`);
    await expect(page.getByTestId('invitation-row').filter({ hasText: email })).toContainText('Front desk');

    // The new clerk opens the link, chooses a password, and the desk's booking form offers the room at its rate.
    const context = await browser.newContext({ baseURL });
    const desk = await context.newPage();
    await desk.goto(await mailedLink(email, 'invitations', sent));
    await desk.getByLabel('New password', { exact: true }).fill('clerk kana chose this');
    await desk.getByLabel('New password again').fill('clerk kana chose this');
    await desk.getByTestId('invitation-activate-submit').click();
    await expect(desk).toHaveURL(/\/desk$/);
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    await desk.goto(`/desk/bookings/new?checkIn=${day(3)}&checkOut=${day(4)}`);
    const choice = desk.locator('label.room-choice').filter({ hasText: '301' });
    await expect(choice).toBeVisible();
    await expect(choice).toContainText('15,000');
    await expect(choice.getByRole('checkbox')).toBeEnabled();
    await context.close();
  });
});

test('the front desk cannot open the setup pages', async ({ deskPage: page }) => {
  for (const path of ['/manage/facilities', '/manage/rooms', '/manage/booking-sources', '/manage/staff']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/forbidden/);
  }
});

test('a manager archives a room the desk then cannot book, and deactivates a clerk whose open session ends', async ({
  managerPage: page,
  deskPage: desk,
  tenant,
}) => {
  const room = tenant.rooms[0]!;
  await page.goto('/manage/rooms');
  await page.getByRole('link', { name: `Edit room ${room.label}` }).click();
  await expect(page.getByTestId('room-doors')).toBeVisible();
  await page.getByTestId('room-archive').click();
  await expect(page.getByTestId('room-archive-result')).toHaveText('Room archived. It takes no new stays.');
  await expect(page.getByTestId('room-restore')).toBeVisible();

  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  await desk.goto(`/desk/bookings/new?checkIn=${day(3)}&checkOut=${day(4)}`);
  await expect(desk.getByRole('heading', { name: '2. Guest and rooms' })).toBeVisible();
  await expect(desk.locator('label.room-choice').filter({ hasText: room.label })).toHaveCount(0);

  await page.goto('/manage/staff');
  const row = page.getByTestId('member-row').filter({ hasText: tenant.desk.email });
  await row.getByTestId('member-deactivate').click();
  await expect(row).toHaveAttribute('data-status', 'deactivated');
  // The last manager cannot step down.
  const me = page.getByTestId('member-row').filter({ hasText: tenant.manager.email });
  await me.getByTestId('member-deactivate').click();
  await expect(me.getByTestId('member-action-result')).toContainText('Someone has to stay a manager');
  await expect(me).toHaveAttribute('data-status', 'active');

  await desk.goto('/desk');
  await expect(desk).toHaveURL(/\/sign-in/);
});
