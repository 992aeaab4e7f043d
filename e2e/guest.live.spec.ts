import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { cli } from './helpers';

// Runs in the "phone" project (Pixel 7). The desk acts through the REST API (API.md) while the
// guest's page stays open: nothing on the phone is reloaded by the test.

const DAY = 86_400_000;

function api(request: APIRequestContext, apiKey: string) {
  const call = async (method: 'GET' | 'POST', path: string, data?: unknown) => {
    const response = await request.fetch(`/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      data: data === undefined ? undefined : JSON.stringify(data),
    });
    expect(response.status(), `${method} ${path}`).toBeLessThan(300);
    return (await response.json()).data;
  };
  return {
    post: (path: string, data: unknown = {}) => call('POST', path, data),
    get: (path: string) => call('GET', path),
  };
}

const digits = (text: string | null) => (text ?? '').replace(/\D/g, '');

test('a guest page left open shows the new PIN after check-in, with a notice, never the old one; a revocation takes the PIN away', async ({
  page,
  request,
  tenant,
}) => {
  const { key: apiKey } = cli('api-key-create', '--tenant', tenant.id, '--name', 'e2e-live') as { key: string };
  const desk = api(request, apiKey);
  // A stay three days away: its pre-issued PIN does not work yet.
  const startsAt = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 3 * DAY);
  const group = await desk.post('/booking-groups', {
    guest: { name: `Live Guest ${Date.now()}` },
    reservations: [{ roomId: tenant.rooms[0]!.id, startsAt, endsAt: new Date(startsAt.getTime() + 2 * DAY) }],
    preIssueKeys: true,
  });
  const reservation = group.reservations[0];
  const guestPath = new URL(reservation.guestUrl).pathname;

  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto(guestPath);
  const status = page.getByTestId('guest-key-status');
  const pin = page.getByTestId('guest-pin');
  // Once the lock confirms it: the PIN, and when it starts working — not "ready".
  await expect(status).toHaveText(/^Your PIN works from /, { timeout: 30_000 });
  await expect(status).not.toHaveText(/ready/);
  const oldPin = digits(await pin.textContent());
  expect(oldPin).toMatch(/^\d{6}$/);

  // The essentials come first: the language switch sits below the PIN and the door information.
  await expect(page.getByTestId('guest-check-out')).toHaveText('Check-out by 10:00');
  const switcherTop = (await page.getByLabel('Language').boundingBox())!.y;
  expect(switcherTop).toBeGreaterThan((await pin.boundingBox())!.y);
  expect(switcherTop).toBeGreaterThan((await page.getByTestId('guest-door-info').boundingBox())!.y);

  // From here on, record every PIN the page shows, and mark the document to prove it is never reloaded.
  await page.evaluate(() => {
    const w = window as unknown as { __pins: string[]; __same: boolean };
    w.__pins = [];
    w.__same = true;
    const record = () => {
      const shown = document.querySelector('[data-testid="guest-pin"]')?.textContent?.replace(/\D/g, '') ?? '';
      if (w.__pins.at(-1) !== shown) w.__pins.push(shown);
    };
    new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true });
  });

  // The desk checks the guest in, days early: the pre-issued PIN is superseded by the stay key.
  const checkIn = await desk.post(`/reservations/${reservation.id}/check-in`, { early: true });
  const newPin: string = checkIn.key.pin;
  expect(checkIn.revokedKeyIds.length).toBe(1);
  expect(newPin).not.toBe(oldPin);

  await expect(status).toHaveText('Your key is ready', { timeout: 30_000 });
  await expect(pin).toHaveAttribute('aria-label', `PIN ${newPin.split('').join(' ')}`);
  const notice = page.getByTestId('guest-pin-changed');
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('Your PIN has changed');
  await expect(page.getByRole('alert').filter({ hasText: 'Your PIN has changed' })).toBeVisible();

  // Copy the PIN: a visible, announced confirmation, and the clipboard holds the new PIN.
  await page.getByRole('button', { name: 'Copy PIN' }).click();
  await expect(page.getByTestId('guest-copy-result')).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(newPin);

  // The stay's calendar file: the stay, never a PIN.
  const ics = await request.get(`${guestPath}/stay.ics`);
  expect(ics.status()).toBe(200);
  const icsText = await ics.text();
  expect(icsText).toContain('BEGIN:VEVENT');
  expect(icsText).not.toContain(newPin);
  expect(icsText).not.toContain(oldPin);

  // The desk revokes the stay key: the PIN leaves the open page.
  await desk.post(`/keys/${checkIn.key.id}/revoke`, { reason: 'PIN shared by mistake' });
  await expect(pin).toHaveCount(0, { timeout: 15_000 });
  await expect(status).toHaveText('Revoked — please see the front desk');

  const seen = await page.evaluate(() => {
    const w = window as unknown as { __pins: string[]; __same?: boolean };
    return { pins: w.__pins, same: w.__same === true };
  });
  expect(seen.same).toBe(true);
  // Shown after the check-in: nothing while activating, then only the new PIN, then nothing.
  expect(seen.pins).not.toContain(oldPin);
  expect(seen.pins).toContain(newPin);
  expect(seen.pins.at(-1)).toBe('');
  // Nowhere on the page (the first HTML's own data still holds what the server rendered then).
  expect(await page.locator('body').innerText()).not.toContain(oldPin);
});

test('a booking cancelled while its page is open says so, with no PIN', async ({ page, request, tenant }) => {
  const { key: apiKey } = cli('api-key-create', '--tenant', tenant.id, '--name', 'e2e-cancel') as { key: string };
  const desk = api(request, apiKey);
  const startsAt = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 5 * DAY);
  const group = await desk.post('/booking-groups', {
    guest: { name: `Cancelled Guest ${Date.now()}` },
    reservations: [{ roomId: tenant.rooms[0]!.id, startsAt, endsAt: new Date(startsAt.getTime() + DAY) }],
    preIssueKeys: true,
  });
  const reservation = group.reservations[0];
  const guestPath = new URL(reservation.guestUrl).pathname;
  await page.goto(guestPath);
  await expect(page.getByTestId('guest-key-status')).toHaveText(/^Your PIN works from |^Activating/, {
    timeout: 30_000,
  });

  await desk.post(`/reservations/${reservation.id}/cancel`, { reason: 'guest cancelled' });
  await expect(page.getByRole('heading', { name: 'This booking was cancelled' })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('guest-pin')).toHaveCount(0);
  // The key endpoint keeps its contract (404), and the calendar file is gone too.
  expect((await request.post(`/api/guest/${guestPath.split('/').pop()}/key`)).status()).toBe(404);
  expect((await request.get(`${guestPath}/stay.ics`)).status()).toBe(404);
});
