import { expect, test } from './fixtures';
import { bookNight } from './helpers';

// Issue 32, item 3: setup steps in the browser. Runs in the "desktop" project, in a tenant of its own whose two
// rooms each have a simulator lock as their own door (make-tenant).

const DAY = 86_400_000;

test.describe('a room’s doors', () => {
  test.use({ rooms: 2 });

  test('a manager removes a door, is refused the last one of a stay, and replaces a lock', async ({
    managerPage: page,
    tenant,
  }) => {
    const [first, second] = [tenant.rooms[0]!, tenant.rooms[1]!];
    const guestName = `Door Guest ${Date.now()}`;
    await bookNight(page, { day: new Date(Date.now() + DAY), guestName, roomId: first.id });

    // Room 102 has no stay: its door comes off, and its lock stays the tenant's, on no room.
    await page.goto(`/manage/rooms/${second.id}`);
    await page
      .locator(`[data-testid="room-door"][data-lock-name="${second.lockDevice}"]`)
      .getByTestId('room-door-remove')
      .click();
    await expect(page.getByTestId('room-door-remove-result')).toHaveText(/^Door removed: this lock no longer opens/);
    await expect(page.getByTestId('room-door')).toHaveCount(0);
    await expect(page.getByText('This room has no lock yet')).toBeVisible();

    // Room 101's only door holds the guest's live code: removing it is refused in words.
    await page.goto(`/manage/rooms/${first.id}`);
    const door = page.locator(`[data-testid="room-door"][data-lock-name="${first.lockDevice}"]`);
    await door.getByTestId('room-door-remove').click();
    await expect(page.getByTestId('room-door-remove-result')).toHaveText(
      /^This is the room's last door and a stay holds a live key on it: a guest's PIN would open nothing\./,
    );
    await expect(door).toBeVisible();

    // Replaced by room 102's old lock: the guest's code goes onto it and comes off the old one.
    await door.getByTestId('room-door-replace-lock').selectOption({ label: second.lockDevice });
    await door.getByTestId('room-door-replace').click();
    await expect(page.getByTestId('room-door-replace-result')).toHaveText(
      /^Lock replaced: 1 live code is being sent to the new lock and taken off the old one\./,
    );
    await expect(page.getByTestId('room-door')).toHaveAttribute('data-lock-name', second.lockDevice);

    await page.goto('/manage/locks');
    const fresh = page.locator(`[data-testid="lock-card"][data-device-id="${second.lockDevice}"]`);
    await expect(fresh.getByTestId('lock-door')).toHaveText(`Room ${first.label} · own door`);
    const code = fresh.getByTestId('lock-code').filter({ hasText: guestName });
    await expect(async () => {
      await page.reload();
      await expect(code.getByTestId('lock-code-state')).toHaveText('Set on lock', { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    // The old lock is still listed, on no room.
    const old = page.locator(`[data-testid="lock-card"][data-device-id="${first.lockDevice}"]`);
    await expect(old).toBeVisible();
    await expect(old.getByTestId('lock-door')).toHaveCount(0);
  });
});

test('a manager sets the facility’s contact, languages and time zone by typing, and guests see them', async ({
  managerPage: page,
  tenant,
}) => {
  await page.goto(`/manage/facilities/${tenant.facilityId}`);
  const zone = page.getByTestId('facility-timeZone');
  await zone.fill('Asia/Tokio');
  await page.getByTestId('facility-save').click();
  await expect(zone).toHaveAccessibleDescription(/Unknown time zone\. Type an IANA name from the list/);

  await zone.fill('Asia/Tokyo');
  await page.getByTestId('facility-phone').fill('+81 3 1234 5678');
  await page.getByTestId('facility-email').fill('desk@harbour.example');
  await page.getByTestId('facility-address').fill('1-2-3 Kaigan, Minato, Tokyo');
  await page.getByTestId('facility-guestLanguage-ja').uncheck();
  await page.getByTestId('facility-save').click();
  await expect(page.getByTestId('facility-saved')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('facility-timeZone')).toHaveValue('Asia/Tokyo');
  await expect(page.getByTestId('facility-guestLanguage-ja')).not.toBeChecked();

  await page.getByTestId('facility-termsText').fill('Quiet after 22:00. No smoking.');
  await page.getByTestId('facility-privacyText').fill('We keep your name and email for the stay only.');
  await page.getByTestId('facility-texts-save').click();
  await expect(page.getByTestId('facility-texts-result')).toHaveText('Texts saved.');
  const slug = `doors-${tenant.id.slice(0, 8)}`;
  await page.getByTestId('facility-slug').fill(slug);
  await page.getByTestId('facility-publish').click();
  await expect(page.getByTestId('facility-publish-result')).toContainText('Published.');

  await page.goto(`/b/${slug}`);
  const footer = page.getByTestId('booking-site-footer');
  await expect(footer.getByTestId('booking-site-contact')).toContainText('+81 3 1234 5678');
  await expect(footer.getByRole('link', { name: 'desk@harbour.example' })).toHaveAttribute(
    'href',
    'mailto:desk@harbour.example',
  );
  await footer.getByText('Terms', { exact: true }).click();
  await expect(footer.getByTestId('booking-site-terms')).toHaveText('Quiet after 22:00. No smoking.');
});

test('a manager sends a test mail to their own address and is told it went', async ({ managerPage: page, tenant }) => {
  await page.goto('/manage/mailbox');
  await expect(page.getByTestId('test-mail-to')).toHaveValue(tenant.manager.email);
  await page.getByTestId('test-mail-to').fill('not an address');
  await page.getByTestId('test-mail-send').click();
  await expect(page.getByTestId('test-mail-result')).toHaveText('Enter an email address.');
  await page.getByTestId('test-mail-to').fill(tenant.manager.email);
  await page.getByTestId('test-mail-send').click();
  await expect(page.getByTestId('test-mail-result')).toHaveText(
    `Sent: the mail server accepted the test mail for ${tenant.manager.email}.`,
  );
});
