import { expect, test } from './fixtures';

// Runs in the "desktop" project, in a tenant of its own.
test('a manager deletes a guest’s personal data; the reservation stays and every page shows “Deleted account”', async ({
  managerPage: page,
}) => {
  const guestName = `Deletable Guest ${Date.now()}`;
  await page.goto('/desk/bookings/new');
  await page.waitForLoadState('networkidle');
  // The top bar marks the section of the page's own path.
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Bookings' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('link', { name: 'Front desk' })).not.toHaveAttribute('aria-current', 'page');
  // Tonight, the form's own dates.
  await page.getByRole('button', { name: 'Show available rooms' }).click();
  // The room list is a client component: let it hydrate before ticking, or the tick is lost.
  await page.waitForLoadState('networkidle');
  const freeRoom = page.locator('input[name="roomIds"]:not([disabled])').first();
  await freeRoom.check();
  await page.getByLabel('Guest name').fill(guestName);
  await page.getByRole('button', { name: 'Book 1 room' }).click();
  await expect(page).toHaveURL(/\/desk\/bookings\?created=/);
  await page.getByTestId('booking-created').getByRole('link').first().click();
  await expect(page).toHaveURL(/\/desk\/reservations\//);
  await page.waitForLoadState('networkidle');
  const reservationUrl = page.url();
  await expect(page.getByText(guestName).first()).toBeVisible();

  const form = page.getByTestId('delete-guest-form');
  await form.getByLabel('Type the guest’s name to confirm').fill(guestName);
  await form.getByRole('button', { name: 'Delete personal data' }).click();

  await expect(form).toHaveCount(0);
  await page.goto(reservationUrl);
  await expect(page.getByText('Deleted account', { exact: true }).first()).toBeVisible();
  await expect(page.getByText(guestName)).toHaveCount(0);
  // The reservation is still there, and the bookings list shows the tombstone, never a blank.
  await expect(page.getByTestId('reservation-status')).toBeVisible();
  await page.goto('/desk/bookings');
  await expect(page.getByTestId('bookings-table').getByText('Deleted account', { exact: true }).first()).toBeVisible();
  await expect(page.getByTestId('bookings-table')).not.toContainText(guestName);
});
