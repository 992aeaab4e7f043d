import { devices } from '@playwright/test';
import { expect, test } from './fixtures';
import { bookNight } from './helpers';

// Runs in the "desktop" project, in a tenant of its own with one room: nobody else books it.

const DAY = 86_400_000;
const tomorrow = () => new Date(Date.now() + DAY);

test('the desk offers early check-in only while the room is free, and audits it', async ({
  deskPage: page,
  tenant,
}) => {
  const first = await bookNight(page, {
    day: tomorrow(),
    guestName: `Early Bird ${Date.now()}`,
    roomId: tenant.rooms[0]!.id,
  });
  const second = await bookNight(page, {
    day: new Date(Date.now() + 2 * DAY),
    guestName: `Next Night ${Date.now()}`,
    roomId: tenant.rooms[0]!.id,
  });

  // The second night: the first guest sleeps in the room until it starts — no early check-in.
  await page.goto(second.reservationUrl);
  await expect(page.getByTestId('check-in-opens')).toContainText('the room is still occupied');
  await expect(page.getByRole('button', { name: 'Check in early' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Complete check-in' })).toHaveCount(0);

  // The first night: nobody is in the room before it, so the desk may insist.
  await page.goto(first.reservationUrl);
  await expect(page.getByTestId('check-in-opens')).toContainText('Check-in opens');
  await expect(page.getByTestId('check-in-opens')).not.toContainText('occupied');
  await page.getByRole('button', { name: 'Check in early' }).click();
  await expect(page.getByTestId('checkin-result')).toContainText('Checked in. New PIN:');
  await page.reload();
  await expect(page.getByTestId('reservation-status')).toHaveText('Checked in');
  await expect(page.getByTestId('reservation-timeline')).toContainText('Checked in before check-in opened');
});

test('the desk replaces a guest link: the old one stops working on the guest’s phone', async ({
  deskPage: page,
  tenant,
  browser,
}) => {
  const { reservationUrl } = await bookNight(page, {
    day: tomorrow(),
    guestName: `Lost Link ${Date.now()}`,
    roomId: tenant.rooms[0]!.id,
  });
  await page.goto(reservationUrl);
  const oldUrl = (await page.getByTestId('guest-url').textContent())!.trim();

  const phone = await browser.newContext({ ...devices['Pixel 7'] });
  const guest = await phone.newPage();
  await guest.goto(new URL(oldUrl).pathname);
  await expect(guest.getByTestId('guest-key-status')).toBeVisible();

  // The desk is told before it acts that the guest's PIN goes with the old link.
  await expect(page.getByTestId('rotate-guest-link-form')).toContainText('the guest’s PIN is replaced by a new one');
  await page.getByRole('button', { name: 'Replace the guest link' }).click();
  await expect(page.getByTestId('rotate-guest-link-result')).toHaveText(
    'A new guest link and a new PIN were made; the old link and the old PIN no longer work.',
  );
  await expect(page.getByTestId('guest-url')).not.toHaveText(oldUrl);
  const newUrl = (await page.getByTestId('guest-url').textContent())!.trim();

  await guest.goto(new URL(oldUrl).pathname);
  await expect(guest.getByRole('heading', { name: 'This link is not valid or has expired.' })).toBeVisible();
  await guest.goto(new URL(newUrl).pathname);
  await expect(guest.getByTestId('guest-key-status')).toBeVisible();
  await phone.close();
});
