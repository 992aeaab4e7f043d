import { devices } from '@playwright/test';
import { expect, makeTenant, test } from './fixtures';
import { e2eScript } from './helpers';
import type { BookingSiteDbInput } from './booking-site-db';
import type { GuestExtensionDbInput } from './guest-extension-db';

// A guest extends their stay from the key page on their phone (Pixel 7), in English at a facility paid at the
// property and in Japanese at one paid online through the local Stripe stand-in (issue 31, item 4; decision 029).
const { defaultBrowserType: _ignored, ...phone } = devices['Pixel 7'];
test.use(phone);

const siteDb = <T>(input: BookingSiteDbInput) => e2eScript<T>('e2e/booking-site-db.ts', input);
const stayDb = <T>(input: GuestExtensionDbInput) => e2eScript<T>('e2e/guest-extension-db.ts', input);

/** A YYYY-MM-DD `days` after today in Tokyo. */
function tokyoDay(days: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(Date.now());
  return new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
/** The facility's check-out time (10:00 in Tokyo) of `day`, as an instant. */
const checkOutOf = (day: string) => new Date(`${day}T01:00:00.000Z`).toISOString();

type State = { endsAt: string; keys: { id: string; pin: string; expiresAt: string }[] };

/** A one-night stay a few days ahead at a Tokyo facility paying `payment`, 12,000 yen a night; its link. */
async function stayAt(name: string, payment: 'online' | 'at_property', from: number) {
  const tenant = await makeTenant(name, 1, 'Asia/Tokyo');
  await siteDb({
    op: 'publish',
    tenantId: tenant.id,
    facilityId: tenant.facilityId,
    roomIds: tenant.rooms.map((r) => r.id),
    slug: `x-${tenant.id.slice(0, 8)}-${Date.now().toString(36)}`,
    payment,
  });
  const stay = await stayDb<{ reservationId: string; path: string }>({
    op: 'stay',
    tenantId: tenant.id,
    roomId: tenant.rooms[0]!.id,
    checkIn: tokyoDay(from),
    checkOut: tokyoDay(from + 1),
  });
  const before = await stayDb<State>({ op: 'state', tenantId: tenant.id, reservationId: stay.reservationId });
  return { tenant, ...stay, before };
}

test('a guest extends by two nights paid at the property: the price first, then the new end and the same PIN', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { tenant, reservationId, path, before } = await stayAt('Extend at property', 'at_property', 4);
  await page.goto(path);
  const extend = page.getByTestId('guest-extend');
  await expect(extend.getByRole('heading', { name: 'Stay longer' })).toBeVisible({ timeout: 20_000 });
  await expect(extend.getByText('You pay this at the property.')).toBeVisible();

  // Two nights more: the price of the added nights only, shown before confirming.
  const newEnd = checkOutOf(tokyoDay(7));
  await extend.getByLabel('New check-out').selectOption(newEnd);
  await expect(extend.getByTestId('guest-extend-price')).toHaveText(/[¥￥]24,000/);
  await extend.getByRole('button', { name: 'Extend my stay' }).click();
  await expect(extend.getByTestId('guest-extend-status')).toContainText('Done: your stay now ends at');
  await expect(page.locator(`.guest-facts--stay time[datetime="${newEnd}"]`)).toBeVisible();

  // The same key, the same PIN, its end moved with the stay's.
  const after = await stayDb<State>({ op: 'state', tenantId: tenant.id, reservationId });
  expect(after.endsAt).toBe(newEnd);
  expect(after.keys.map((k) => [k.id, k.pin])).toEqual(before.keys.map((k) => [k.id, k.pin]));
  expect(after.keys.map((k) => k.expiresAt)).toEqual(before.keys.map(() => newEnd));
});

test('a Japanese guest extends by a night, pays on the Checkout stand-in and comes back to the new end', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const { tenant, reservationId, path, before } = await stayAt('Extend online', 'online', 10);
  const context = await browser.newContext({
    ...phone,
    baseURL,
    locale: 'ja-JP',
    extraHTTPHeaders: { 'accept-language': 'ja' },
  });
  const page = await context.newPage();
  await page.goto(path);
  const extend = page.getByTestId('guest-extend');
  await expect(extend.getByRole('heading', { name: '延泊する' })).toBeVisible({ timeout: 20_000 });
  const newEnd = checkOutOf(tokyoDay(12));
  await extend.getByLabel('新しいチェックアウト').selectOption(newEnd);
  await expect(extend.getByTestId('guest-extend-price')).toHaveText(/[¥￥]12,000/);
  await extend.getByRole('button', { name: 'お支払いへ進む' }).click();

  // The stay does not move before the payment; the stand-in's page takes it and sends the guest back.
  await page.waitForURL(/\/pay\//, { timeout: 20_000 });
  expect((await stayDb<State>({ op: 'state', tenantId: tenant.id, reservationId })).endsAt).toBe(before.endsAt);
  await page.getByRole('button', { name: /^Pay / }).click();
  await page.waitForURL((url) => url.pathname === path && url.searchParams.get('extension') === 'paid', {
    timeout: 20_000,
  });
  await expect(page.locator(`.guest-facts--stay time[datetime="${newEnd}"]`)).toBeVisible({ timeout: 45_000 });

  const after = await stayDb<State>({ op: 'state', tenantId: tenant.id, reservationId });
  expect(after.endsAt).toBe(newEnd);
  expect(after.keys.map((k) => [k.id, k.pin])).toEqual(before.keys.map((k) => [k.id, k.pin]));
  await context.close();
});
