import { deskBooksTonight, expect, japanesePhoneOn, test } from './fixtures';
import { checkInButton, simulatorFaults } from './helpers';

// Runs in the "phone" project (Pixel 7): the guest's own device. The guest's stay is in a tenant of its own.
test.describe.configure({ mode: 'serial' });

test.afterEach(async () => {
  await simulatorFaults({});
});

test('the front desk checks a guest in; the guest sees "Activating…", then the new PIN, and the old one is revoked', async ({
  page,
  browser,
  baseURL,
  tenant,
  facilityZone,
}) => {
  // The front desk books the guest tonight; the booking pre-issues a key and makes the guest link.
  const guestName = `Aiko Tanaka ${Date.now()}`;
  const { desk, deskPage, guestPath } = await deskBooksTonight(browser, tenant, baseURL!, guestName);

  // Before check-in the guest's phone shows the pre-issued key.
  await page.goto(guestPath);
  await page.waitForLoadState('networkidle');
  // Ready, or (before the key's lead time on the day) when it starts working.
  await expect(page.getByTestId('guest-key-status')).toHaveText(/Your key is ready|Your PIN works from/, {
    timeout: 20_000,
  });
  const preIssuedPin = (await page.getByTestId('guest-pin').textContent())?.replace(/\D/g, '');
  expect(preIssuedPin).toMatch(/^\d{6}$/);

  // The lock is slow today: programming takes several seconds (under the vendor client's 10 s timeout).
  await simulatorFaults({ latencyMs: 8000 });

  // The stay starts today at 15:00: the desk checks the guest in, early before then (room 101 is free).
  await deskPage.goto('/desk');
  await checkInButton(deskPage.getByRole('row').filter({ hasText: guestName })).click();
  await expect(deskPage.getByTestId('checkin-result')).toContainText('Checked in. New PIN:');
  const newPin = (await deskPage.getByTestId('checkin-new-pin').textContent())?.replace(/\D/g, '');
  expect(newPin).toMatch(/^\d{6}$/);
  expect(newPin).not.toBe(preIssuedPin);

  // The guest refreshes: activating while the lock is programmed, then the new PIN.
  await page.reload();
  await expect(page.getByTestId('guest-key-status')).toHaveText(/Activating your key…/, { timeout: 10_000 });
  await expect(page.getByTestId('guest-pin')).toHaveCount(0);
  await expect(page.getByTestId('guest-key-status')).toHaveText(/Your key is ready/, { timeout: 30_000 });
  await expect(page.getByTestId('guest-pin')).toHaveText(new RegExp(newPin!.split('').join('\\s*')));

  // The desk sees the pre-issued key revoked because of the check-in.
  await deskPage.getByRole('link', { name: '101' }).first().click();
  const revoked = deskPage.locator('[data-testid="key-card"][data-key-status="revoked"]');
  await expect(revoked).toHaveCount(1);
  await expect(revoked).toContainText('Replaced by the check-in key');
  await desk.close();

  // The same key on a Japanese phone: the key's words and times come in the guest's language
  // (translated by the server, formatted in the facility's zone: decision 013).
  const { context: japanese, page: jaPage } = await japanesePhoneOn(browser, baseURL!, guestPath);
  await expect(jaPage.getByTestId('guest-key-status')).toHaveText('鍵の準備ができました');
  await expect(jaPage.getByTestId('guest-pin')).toHaveAttribute('aria-label', `PIN ${newPin!.split('').join(' ')}`);
  const validUntil = jaPage.locator('.guest-pin-block time').last();
  const format = new Intl.DateTimeFormat('ja-JP', { dateStyle: 'medium', timeStyle: 'short', timeZone: facilityZone });
  expect(await validUntil.textContent()).toBe(format.format(new Date((await validUntil.getAttribute('datetime'))!)));
  await japanese.close();
});

test('an unknown guest link says so, without staff navigation', async ({ page }) => {
  await page.goto('/k/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
  await expect(page.getByRole('heading', { name: 'This link is not valid or has expired.' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign in' })).toHaveCount(0);
});
