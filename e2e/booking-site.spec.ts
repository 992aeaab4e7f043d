import { devices, type Page } from '@playwright/test';
import { expect, makeTenant, signInAs, test } from './fixtures';
import { e2eScript, mailed } from './helpers';
import type { BookingSiteDbInput } from './booking-site-db';

// The booking site on a guest's phone (Pixel 7, as the key page's specs), against the running app's
// public booking API, mail catcher and local Stripe stand-in.
const { defaultBrowserType: _ignored, ...phone } = devices['Pixel 7'];
test.use(phone);

const db = <T>(input: BookingSiteDbInput) => e2eScript<T>('e2e/booking-site-db.ts', input);

/** A published facility (nightly unless told; hourly ones open 09:00–21:00) of a tenant of its own: one room type ("Standard") over `rooms` rooms. */
async function publishedFacility(
  name: string,
  rooms: number,
  payment: 'none' | 'online' | 'at_property',
  unit: 'night' | 'hour' = 'night',
) {
  const tenant = await makeTenant(name, rooms, 'Asia/Tokyo');
  const slug = `t-${tenant.id.slice(0, 8)}-${Date.now().toString(36)}`;
  const { roomTypeId } = await db<{ roomTypeId: string }>({
    op: 'publish',
    tenantId: tenant.id,
    facilityId: tenant.facilityId,
    roomIds: tenant.rooms.map((r) => r.id),
    slug,
    payment,
    unit,
  });
  return { tenant, slug, roomTypeId };
}

/** A YYYY-MM-DD `days` after today in Tokyo. */
function tokyoDay(days: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(Date.now());
  return new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Shows the month of `day` in the calendar and waits for its availability. */
async function showMonthOf(page: Page, day: string) {
  for (let i = 0; i < 3; i++) {
    await expect(page.locator('[data-testid="cal-day"]:not([data-level="unknown"])').first()).toBeVisible();
    if ((await page.locator(`[data-day="${day}"]`).count()) > 0) break;
    await page.getByTestId('cal-next').click();
  }
  await expect(page.locator(`[data-day="${day}"]`)).not.toHaveAttribute('data-level', 'unknown');
}

/** Picks check-in and check-out in the calendar (stay mode). */
async function pickStay(page: Page, checkIn: string, checkOut: string) {
  await showMonthOf(page, checkIn);
  await page.locator(`[data-day="${checkIn}"]`).click();
  await expect(page).toHaveURL(new RegExp(`in=${checkIn}`));
  await showMonthOf(page, checkOut);
  await page.locator(`[data-day="${checkOut}"]`).click();
  await expect(page.getByTestId('book-step')).toHaveAttribute('data-step', 'room');
}

/** Fills the guest's details, accepts the terms and asks for the code. */
async function sendDetails(page: Page, name: string, email: string) {
  await expect(page.getByTestId('book-step')).toHaveAttribute('data-step', 'details');
  await page.getByLabel('Full name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByText('Read the terms').click();
  await expect(page.getByTestId('terms-text')).toBeVisible();
  await page.getByLabel("I accept the property's terms and privacy policy").check();
  await page.getByRole('button', { name: 'Send me a code' }).click();
  await expect(page.getByTestId('book-step')).toHaveAttribute('data-step', 'code');
  await expect(page.getByTestId('code-sent')).toContainText(email);
}

test('a guest books a night, pays online and opens the key from the mail', async ({ page }) => {
  test.setTimeout(120_000);
  // A nightly facility taking payment online: the local Stripe stand-in takes it.
  const { slug } = await publishedFacility('Booking online', 2, 'online');
  const email = `book-${Date.now().toString(36)}@example.com`;
  // Two nights some weeks ahead (possibly into the next month: the calendar moves on).
  const [checkIn, checkOut] = [tokyoDay(20), tokyoDay(22)];

  await page.goto(`/b/${slug}`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Book your stay');
  await pickStay(page, checkIn, checkOut);

  // The room types with their prices for exactly these two nights.
  const free = page.locator('[data-testid="room-type"][data-available="true"]').first();
  await expect(free.getByTestId('room-price')).toContainText(/[¥￥][\d,]+/);
  await free.getByRole('button', { name: /^Choose / }).click();

  await sendDetails(page, 'Hana Suzuki', email);

  // The 6-digit code from the mail.
  const code = await mailed(email, /\b(\d{6})\b/);
  await page.getByLabel('6-digit code').fill(code);
  await page.getByRole('button', { name: 'Confirm booking' }).click();

  // The room is held and the page goes to the Checkout stand-in; paying there lands on the confirmation.
  await expect(page.getByTestId('code-redirect')).toContainText('held until');
  await page.waitForURL(/\/pay\//, { timeout: 20_000 });
  await page.getByRole('button', { name: /^Pay / }).click();
  await page.waitForURL(new RegExp(`/b/${slug}/done\\?request=`), { timeout: 20_000 });
  await expect(page.getByTestId('done-status')).toHaveAttribute('data-state', 'confirmed', { timeout: 30_000 });
  await expect(page.getByTestId('done-status')).toHaveText('Your booking is confirmed.');
  await expect(page.getByTestId('done-key-mailed')).toBeVisible();

  // The key link from the key_link mail opens the key page.
  const keyPath = await mailed(email, /https?:\/\/[^\s"'<>]+(\/k\/[A-Za-z0-9_-]+)/);
  await page.goto(keyPath);
  await expect(page.getByTestId('guest-key-status')).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('#guest-room')).toBeVisible();
});

test('the booking site speaks Japanese to a Japanese browser, and switches to English', async ({ browser }) => {
  const { slug } = await publishedFacility('Booking ja', 1, 'none');
  const context = await browser.newContext({
    ...phone,
    locale: 'ja-JP',
    extraHTTPHeaders: { 'accept-language': 'ja' },
  });
  const page = await context.newPage();
  await page.goto(`/b/${slug}`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('宿泊のご予約');
  await expect(page.getByTestId('cal-instruction')).toHaveText('チェックイン日を選んでください。');
  // A day says its date and its availability in Japanese.
  const day = tokyoDay(10);
  await showMonthOf(page, day);
  await expect(page.locator(`[data-day="${day}"]`)).toHaveAttribute('aria-label', /2\d{3}年\d+月\d+日.*空室あり/);
  // The steps and the legend too; then the visible switch turns the page English, dates kept.
  await page.locator(`[data-day="${day}"]`).click();
  await expect(page.getByTestId('cal-instruction')).toContainText('チェックアウト日を選んでください');
  await page.getByLabel('言語').selectOption('en');
  await page.getByRole('button', { name: '言語を変更' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Book your stay');
  await expect(page).toHaveURL(new RegExp(`in=${day}`));
  await context.close();
});

test('a full day cannot be chosen', async ({ page, request }) => {
  // One room: a booking for one night fills that night.
  const { slug, roomTypeId } = await publishedFacility('Booking full', 1, 'none');
  // A full day with a free day either side, all in one month.
  let offset = 3;
  while (tokyoDay(offset - 1).slice(0, 7) !== tokyoDay(offset + 1).slice(0, 7)) offset++;
  const full = tokyoDay(offset);
  const email = `full-${Date.now().toString(36)}@example.com`;
  const asked = await request.post(`/api/public/facilities/${slug}/booking-requests`, {
    data: {
      roomTypeId,
      checkIn: full,
      checkOut: tokyoDay(offset + 1),
      guest: { name: 'Ken Ito', email },
      locale: 'en',
      acceptTerms: true,
    },
  });
  expect(asked.status()).toBe(202);
  const { data } = (await asked.json()) as { data: { id: string } };
  const code = await mailed(email, /\b(\d{6})\b/);
  const confirmed = await request.post(`/api/public/booking-requests/${data.id}/confirm`, { data: { code } });
  expect(confirmed.status()).toBe(201);

  await page.goto(`/b/${slug}`);
  await showMonthOf(page, full);
  const cell = page.locator(`[data-day="${full}"]`);
  await expect(cell).toHaveAttribute('data-level', 'full');
  await expect(cell).toBeDisabled();
  await expect(cell).toHaveAttribute('aria-label', /, Full$/);
  await cell.click({ force: true });
  await expect(page).not.toHaveURL(new RegExp(`in=${full}`));
  await expect(page.getByTestId('cal-instruction')).toHaveText('Pick your check-in day.');
  // The night before is free, and a stay may end on the full day (its night is someone else's).
  await page.locator(`[data-day="${tokyoDay(offset - 1)}"]`).click();
  await expect(page.getByTestId('cal-instruction')).toContainText('Now pick your check-out day.');
  await expect(page.locator(`[data-day="${full}"]`)).toBeEnabled();
  await expect(page.locator(`[data-day="${tokyoDay(offset + 1)}"]`)).toBeDisabled();
});

test('axe finds nothing serious on the booking steps', async ({ page }) => {
  const { AxeBuilder } = await import('@axe-core/playwright');
  const { slug } = await publishedFacility('Booking axe', 2, 'at_property');
  const check = async (where: string) => {
    const results = await new AxeBuilder({ page }).analyze();
    const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(bad.map((v) => `${where}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  };
  await page.goto(`/b/${slug}`);
  await showMonthOf(page, tokyoDay(8));
  await check('calendar');
  await pickStay(page, tokyoDay(8), tokyoDay(10));
  await expect(page.getByTestId('room-price').first()).toBeVisible();
  await check('rooms');
  await page
    .getByRole('button', { name: /^Choose / })
    .first()
    .click();
  await page.getByRole('button', { name: 'Send me a code' }).click();
  // Every error shown inline, then checked.
  await expect(page.getByText('Enter your name.')).toBeVisible();
  await check('details with errors');
  await sendDetails(page, 'Mika Sato', `axe-${Date.now().toString(36)}@example.com`);
  await check('code');
});

test('a guest books two hours at an hourly facility and pays at the property', async ({ page }) => {
  const { slug } = await publishedFacility('Booking hourly', 1, 'at_property', 'hour');
  const email = `hour-${Date.now().toString(36)}@example.com`;
  const day = tokyoDay(3);
  await page.goto(`/b/${slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Book a room by the hour');
  await expect(page.getByTestId('cal-instruction')).toHaveText('Pick a day.');
  await showMonthOf(page, day);
  await page.locator(`[data-day="${day}"]`).click();
  // 15-minute steps inside the opening hours.
  await expect(page.getByTestId('time-from').locator('option').first()).toHaveText('09:00');
  await expect(page.getByTestId('time-to').locator('option').last()).toHaveText('21:00');
  await page.getByTestId('time-from').selectOption('10:00');
  await page.getByTestId('time-to').selectOption('12:15');
  await page.getByRole('button', { name: 'Show rooms' }).click();
  await expect(page.getByTestId('book-step')).toHaveAttribute('data-step', 'room');
  await expect(page.getByTestId('room-price').first()).toContainText(/[¥￥][\d,]+/);
  await page.getByRole('button', { name: 'Choose Standard' }).click();
  await expect(page.getByTestId('book-summary')).toContainText('10:00');
  await sendDetails(page, 'Yui Mori', email);

  // A wrong code first: said plainly, the booking not made.
  await page.getByLabel('6-digit code').fill('000000');
  const code = await mailed(email, /\b(\d{6})\b/);
  if (code !== '000000') {
    await page.getByRole('button', { name: 'Confirm booking' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'That code is not right.' })).toBeVisible();
  }
  await page.getByLabel('6-digit code').fill(code);
  await page.getByRole('button', { name: 'Confirm booking' }).click();
  await page.waitForURL(new RegExp(`/b/${slug}/done\\?request=`));
  await expect(page.getByTestId('done-status')).toHaveText('Your booking is confirmed.');
  await expect(page.getByText('You pay at the property.')).toBeVisible();
  await expect(page.getByTestId('done-summary')).toContainText(/10:00.*12:15/);
});

test('a third unpaid booking from one address waits until the desk releases a hold (issue 43.4)', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const { tenant, slug, roomTypeId } = await publishedFacility('Booking holds', 3, 'at_property');
  // Two bookings to pay at the property from this browser's address (every e2e request comes from loopback).
  for (const [i, offset] of [
    [1, 30],
    [2, 32],
  ] as const) {
    const email = `holder-${i}-${Date.now().toString(36)}@example.com`;
    const asked = await request.post(`/api/public/facilities/${slug}/booking-requests`, {
      data: {
        roomTypeId,
        checkIn: tokyoDay(offset),
        checkOut: tokyoDay(offset + 1),
        guest: { name: `Holder ${i}`, email },
        acceptTerms: true,
      },
    });
    expect(asked.status()).toBe(202);
    const { data } = (await asked.json()) as { data: { id: string } };
    const code = await mailed(email, /\b(\d{6})\b/);
    expect((await request.post(`/api/public/booking-requests/${data.id}/confirm`, { data: { code } })).status()).toBe(
      201,
    );
  }

  // The third, in the browser: refused with a plain reason, nothing held.
  const email = `third-${Date.now().toString(36)}@example.com`;
  await page.goto(`/b/${slug}`);
  await pickStay(page, tokyoDay(34), tokyoDay(35));
  await page.getByRole('button', { name: 'Choose Standard' }).click();
  await sendDetails(page, 'Third Guest', email);
  await page.getByLabel('6-digit code').fill(await mailed(email, /\b(\d{6})\b/));
  await page.getByRole('button', { name: 'Confirm booking' }).click();
  await expect(page.getByTestId('code-too-many-holds')).toHaveText(
    'You already hold 2 unpaid bookings here. Pay for or cancel one of them, then confirm this one.',
  );

  // The desk sees both holds, from one address, and releases one.
  const { defaultBrowserType: _browserType, ...desktop } = devices['Desktop Chrome'];
  const desk = await browser.newContext(desktop);
  await signInAs(desk, tenant.desk, baseURL!);
  const deskPage = await desk.newPage();
  await deskPage.goto('/desk/holds');
  const rows = deskPage.getByTestId('hold-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.first().getByTestId('hold-from')).toContainText('2 from one address');
  await rows.first().getByTestId('hold-release').click();
  await expect(rows).toHaveCount(1);
  await deskPage.reload();
  await expect(deskPage.getByTestId('hold-row')).toHaveCount(1);
  await expect(deskPage.getByTestId('hold-from')).not.toContainText('from one address');
  await desk.close();

  // The guest confirms again: the booking goes through.
  await page.getByRole('button', { name: 'Confirm booking' }).click();
  await page.waitForURL(new RegExp(`/b/${slug}/done\\?request=`));
  await expect(page.getByTestId('done-status')).toHaveText('Your booking is confirmed.');
});
