import { devices, type Browser, type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { EN, fillRegister, JA, pngFixture, type Words } from './guest-register-form';
import { bookNight, cli } from './helpers';

// The guest register of Japan's lodging law (issue 31, item 2) on a guest's phone (Pixel 7), in English
// and in Japanese: a Japanese guest and a foreign guest with a photo of the passport, until "complete";
// the desk sees only that it is, a manager reads it.
const { defaultBrowserType: _ignored, ...phone } = devices['Pixel 7'];
test.use({ rooms: 2 });

async function phonePage(browser: Browser, baseURL: string, language: 'en' | 'ja'): Promise<Page> {
  const context = await browser.newContext({
    ...phone,
    baseURL,
    locale: language === 'ja' ? 'ja-JP' : 'en-GB',
    extraHTTPHeaders: { 'accept-language': language },
  });
  return context.newPage();
}

async function fillAndReread(page: Page, w: Words, png: Buffer) {
  await fillRegister(page, w, png);
  // The page, read again, says so too (and asks no more).
  await page.reload();
  await expect(page.getByTestId('guest-register-complete')).toHaveText(w.complete);
  await expect(page.getByTestId('guest-register')).toHaveCount(0);
}

test('guests fill the register on their phones in English and Japanese; the desk sees only that it is complete', async ({
  browser,
  baseURL,
  tenant,
  deskPage,
  managerPage,
}) => {
  // Two bookings through the desk, two phones filling the register, a manager reading it.
  test.setTimeout(180_000);
  cli('facility-update', '--tenant', tenant.id, '--facility', tenant.facilityId, '--registration', 'jp');
  const png = pngFixture();

  // Two stays tonight, one per room: one guest's phone in English, the other's in Japanese.
  const stays = [];
  for (const [i, room] of tenant.rooms.entries()) {
    const { reservationUrl } = await bookNight(deskPage, {
      day: new Date(),
      guestName: `Register guest ${i} ${Date.now()}`,
      roomId: room.id,
    });
    await expect(deskPage.getByTestId('reservation-register')).toHaveText('Register missing');
    const guestPath = new URL((await deskPage.getByTestId('guest-url').textContent())!.trim()).pathname;
    stays.push({ reservationUrl, guestPath });
  }

  const english = await phonePage(browser, baseURL!, 'en');
  await english.goto(stays[0]!.guestPath);
  await english.waitForLoadState('networkidle');
  await fillAndReread(english, EN, png);
  await english.context().close();

  const japanese = await phonePage(browser, baseURL!, 'ja');
  await japanese.goto(stays[1]!.guestPath);
  await japanese.waitForLoadState('networkidle');
  await expect(japanese.getByRole('heading', { name: '宿泊者名簿' })).toBeVisible();
  await fillAndReread(japanese, JA, png);
  await japanese.context().close();

  // The desk: complete, and not a word of who.
  await deskPage.goto(stays[0]!.reservationUrl);
  await expect(deskPage.getByTestId('reservation-register')).toHaveText('Register complete');
  await expect(deskPage.getByText('P1234567')).toHaveCount(0);

  // A manager reads the day's register and opens a passport photo (audited).
  await managerPage.goto('/manage/register');
  await expect(managerPage.getByTestId('register-stay')).toHaveCount(2);
  await expect(managerPage.getByTestId('register-guest').filter({ hasText: 'Ada Lovelace' })).toHaveCount(2);
  const href = await managerPage.getByRole('link', { name: 'Open photo' }).first().getAttribute('href');
  const image = await managerPage.request.get(href!);
  expect(image.status()).toBe(200);
  expect(image.headers()['content-type']).toBe('image/png');
  expect(Buffer.from(await image.body()).equals(png)).toBe(true);
  const csv = await managerPage.request.get((await managerPage.getByTestId('register-export').getAttribute('href'))!);
  expect(csv.status()).toBe(200);
  expect(await csv.text()).toContain('"P1234567"');
});
