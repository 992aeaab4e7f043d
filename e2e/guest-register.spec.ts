import { deflateSync } from 'node:zlib';
import { devices, type Browser, type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { bookNight, cli } from './helpers';

// The guest register of Japan's lodging law (issue 31, item 2) on a guest's phone (Pixel 7), in English
// and in Japanese: a Japanese guest and a foreign guest with a photo of the passport, until "complete";
// the desk sees only that it is, a manager reads it.
const { defaultBrowserType: _ignored, ...phone } = devices['Pixel 7'];
test.use({ rooms: 2 });

/** A small real PNG (8×8, one colour), made here: the register checks the image by its bytes. */
function pngFixture(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const size = 8;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB
  const rows = Buffer.concat(
    Array.from({ length: size }, () => Buffer.concat([Buffer.from([0]), Buffer.alloc(size * 3, 0x7f)])),
  );
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function phonePage(browser: Browser, baseURL: string, language: 'en' | 'ja'): Promise<Page> {
  const context = await browser.newContext({
    ...phone,
    baseURL,
    locale: language === 'ja' ? 'ja-JP' : 'en-GB',
    extraHTTPHeaders: { 'accept-language': language },
  });
  return context.newPage();
}

type Words = {
  name: string;
  address: string;
  nationality: string;
  passportNumber: string;
  passportImage: string;
  add: string;
  submit: string;
  japan: string;
  britain: string;
  summary: string;
  complete: string;
};

const EN: Words = {
  name: 'Full name',
  address: 'Home address',
  nationality: 'Nationality',
  passportNumber: 'Passport number',
  passportImage: 'Photo of the passport’s photo page',
  add: 'Add a guest',
  submit: 'Save the register',
  japan: 'Japan',
  britain: 'United Kingdom',
  summary: 'Please check the fields marked below.',
  complete: 'Register complete',
};
const JA: Words = {
  name: '氏名',
  address: '住所',
  nationality: '国籍',
  passportNumber: '旅券番号',
  passportImage: '旅券の写真ページの画像',
  add: '宿泊者を追加',
  submit: '名簿を保存',
  japan: '日本',
  britain: 'イギリス',
  summary: '下に示した項目を確認してください。',
  complete: '名簿の記入が完了しました',
};

/** Fills the register for a Japanese guest and a foreign one; the first submit forgets the passport, and keeps the entries. */
async function fillRegister(page: Page, w: Words, png: Buffer) {
  const form = page.getByTestId('guest-register');
  await expect(form).toBeVisible();
  const first = page.getByTestId('register-guest-1');
  await first.getByLabel(w.name, { exact: true }).fill('山田 太郎');
  await first.getByLabel(w.address, { exact: true }).fill('東京都千代田区千代田1-1');
  await first.getByLabel(w.nationality, { exact: true }).selectOption({ label: w.japan });
  await page.getByRole('button', { name: w.add }).click();
  const second = page.getByTestId('register-guest-2');
  await second.getByLabel(w.name, { exact: true }).fill('Ada Lovelace');
  await second.getByLabel(w.address, { exact: true }).fill('12 St James Square, London');
  await second.getByLabel(w.nationality, { exact: true }).selectOption({ label: w.britain });

  // Without the passport: each missing field says so, the summary takes the focus, nothing typed is lost.
  await page.getByTestId('guest-register-submit').click();
  await expect(page.getByTestId('guest-register-error')).toHaveText(w.summary);
  await expect(second.getByLabel(w.passportNumber, { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(first.getByLabel(w.name, { exact: true })).toHaveValue('山田 太郎');
  await expect(second.getByLabel(w.name, { exact: true })).toHaveValue('Ada Lovelace');

  await second.getByLabel(w.passportNumber, { exact: true }).fill('P1234567');
  await second
    .getByLabel(w.passportImage, { exact: true })
    .setInputFiles({ name: 'passport.png', mimeType: 'image/png', buffer: png });
  await page.getByTestId('guest-register-submit').click();
  await expect(page.getByTestId('guest-register-complete').first()).toHaveText(w.complete, { timeout: 20_000 });
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
  await fillRegister(english, EN, png);
  await english.context().close();

  const japanese = await phonePage(browser, baseURL!, 'ja');
  await japanese.goto(stays[1]!.guestPath);
  await japanese.waitForLoadState('networkidle');
  await expect(japanese.getByRole('heading', { name: '宿泊者名簿' })).toBeVisible();
  await fillRegister(japanese, JA, png);
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
