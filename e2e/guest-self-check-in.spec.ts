import { devices, type Browser, type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { e2eScript } from './helpers';
import type { SelfCheckInDbInput } from './self-check-in-db';

// The guest's own phone (Pixel 7), as in the "phone" project: this spec's name does not match its pattern.
const { defaultBrowserType: _browser, ...phone } = devices['Pixel 7'];
test.use({ ...phone, rooms: 2, facilityZone: 'Asia/Tokyo' });
test.describe.configure({ mode: 'serial' });

const db = <T>(input: SelfCheckInDbInput) => e2eScript<T>('e2e/self-check-in-db.ts', input);

const WORDS = {
  en: {
    opens: /Check-in opens at/,
    open: 'Check in to get your door PIN',
    todo: 'Pay at the property',
    key: /Your key is ready|Your PIN works from/,
    question: 'Check out now?',
    ended: 'Thank you for staying with us',
    noReentry: 'the room cannot be entered again',
  },
  ja: {
    opens: /チェックインは.+から可能です/,
    open: 'チェックインするとドアのPINが表示されます',
    todo: 'お支払いは現地でお願いします',
    key: /鍵の準備ができました|このPINは.+から使えます/,
    question: '今すぐチェックアウトしますか？',
    ended: 'ご利用ありがとうございました',
    noReentry: '再入室はできません',
  },
} as const;

async function phoneIn(browser: Browser, baseURL: string, language: 'en' | 'ja'): Promise<Page> {
  const context = await browser.newContext({
    ...phone,
    baseURL,
    locale: language === 'ja' ? 'ja-JP' : 'en-GB',
    extraHTTPHeaders: { 'accept-language': language },
  });
  return context.newPage();
}

test('a guest checks in from the phone, sees the PIN, and checks out early — in English and Japanese', async ({
  browser,
  baseURL,
  tenant,
}) => {
  test.setTimeout(180_000);
  await db({ op: 'facility', tenantId: tenant.id, facilityId: tenant.facilityId, mode: 'self', opensHours: 24 });
  const links = {
    en: await db<{ path: string }>({
      op: 'book',
      tenantId: tenant.id,
      roomId: tenant.rooms[0]!.id,
      startsInHours: 30,
      hours: 24,
      guestName: 'Emma Self',
    }),
    ja: await db<{ path: string }>({
      op: 'book',
      tenantId: tenant.id,
      roomId: tenant.rooms[1]!.id,
      startsInHours: 30,
      hours: 24,
      guestName: '山田 花子',
    }),
  };

  // Both phones open their key link 30 hours early: check-in is not open yet, and no PIN is on the page.
  const pages = { en: await phoneIn(browser, baseURL!, 'en'), ja: await phoneIn(browser, baseURL!, 'ja') };
  for (const language of ['en', 'ja'] as const) {
    const page = pages[language];
    await page.goto(links[language].path);
    await expect(page.getByTestId('guest-key-status')).toHaveText(WORDS[language].opens);
    await expect(page.getByTestId('guest-key-status')).toHaveAttribute('data-state', 'checkInClosed');
    await expect(page.getByTestId('guest-todo')).toContainText(WORDS[language].todo);
    await expect(page.getByTestId('guest-pin')).toHaveCount(0);
    await expect(page.getByTestId('guest-check-in')).toHaveCount(0);
  }

  // The property opens check-in 48 hours before: the pages, left open, offer the check-in by themselves.
  await db({ op: 'facility', tenantId: tenant.id, facilityId: tenant.facilityId, mode: 'self', opensHours: 48 });
  const second = await phoneIn(browser, baseURL!, 'en');
  await second.goto(links.en.path);

  for (const language of ['en', 'ja'] as const) {
    const page = pages[language];
    await expect(page.getByTestId('guest-key-status')).toHaveText(WORDS[language].open, { timeout: 20_000 });
    await page.getByTestId('guest-check-in').click();
    await expect(page.getByTestId('guest-key-status')).toHaveText(WORDS[language].key, { timeout: 30_000 });
    await expect(page.getByTestId('guest-pin')).toHaveText(/^(\s*\d){6}\s*$/);
  }

  // A second phone with the same link, left open, shows the same PIN without a tap.
  const pin = (await pages.en.getByTestId('guest-pin').textContent())!.replace(/\D/g, '');
  await expect(second.getByTestId('guest-pin')).toHaveText(new RegExp(pin.split('').join('\\s*')), {
    timeout: 20_000,
  });

  for (const language of ['en', 'ja'] as const) {
    const page = pages[language];
    // One tap only asks; "no" keeps the stay.
    await page.getByTestId('guest-check-out-start').click();
    await expect(page.getByRole('heading', { name: WORDS[language].question })).toBeFocused();
    await page.getByTestId('guest-check-out-cancel').click();
    await expect(page.getByTestId('guest-check-out-start')).toBeFocused();
    await expect(page.getByTestId('guest-pin')).toBeVisible();
    // Yes: the stay ends, and the page says so.
    await page.getByTestId('guest-check-out-start').click();
    await page.getByTestId('guest-check-out-confirm').click();
    await expect(page.getByTestId('guest-ended')).toContainText(WORDS[language].ended, { timeout: 20_000 });
    await expect(page.getByTestId('guest-no-reentry')).toContainText(WORDS[language].noReentry);
    await expect(page.getByTestId('guest-pin')).toHaveCount(0);
  }

  // The other phone, left open, follows to the ended page.
  await expect(second.getByTestId('guest-ended')).toBeVisible({ timeout: 20_000 });
  await expect(second.getByTestId('guest-pin')).toHaveCount(0);
});
