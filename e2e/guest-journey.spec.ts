import { readFileSync } from 'node:fs';
import { devices, type Page } from '@playwright/test';
import { expect, phoneOn, test } from './fixtures';
import type { GuestExtensionDbInput } from './guest-extension-db';
import { EN, fillRegister, JA, pngFixture } from './guest-register-form';
import { cli, e2eScript, mailed } from './helpers';
import type { SelfCheckInDbInput } from './self-check-in-db';

// Issue 31's whole guest journey on the guest's phone (Pixel 7), once in English and once in Japanese, at a Tokyo
// facility with self check-in and Japan's guest register, paid at the property: the key-link mail, what is still to
// do, the register, the check-in and its PIN, a night more, the check-out — all on one page left open (never
// reloaded), while a second phone on the same link follows by itself.
const { defaultBrowserType: _browser, ...phone } = devices['Pixel 7'];
test.use({ ...phone, facilityZone: 'Asia/Tokyo' });

type Language = 'en' | 'ja';
const MESSAGES: Record<Language, Record<string, Record<string, string>>> = {
  en: JSON.parse(readFileSync('messages/en.json', 'utf8')),
  ja: JSON.parse(readFileSync('messages/ja.json', 'utf8')),
};

/** The page's words for `key` ("guestHome.checkInOpen"); with `{slots}`, a pattern taking any filling of them. */
function words(language: Language, key: string): string {
  const [group, name] = key.split('.') as [string, string];
  const text = MESSAGES[language][group]?.[name];
  if (text === undefined) throw new Error(`no message ${key} in ${language}`);
  return text;
}
function wordsLike(language: Language, key: string): RegExp {
  const escaped = words(language, key).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(escaped.replace(/\\\{\w+\\\}/g, '.+'));
}

const DAY = 86_400_000;
/** A YYYY-MM-DD `days` after `day`. */
const plusDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
/** The facility's check-in (15:00 in Tokyo) and check-out (10:00) of `day`, as instants. */
const checkInOf = (day: string) => new Date(`${day}T06:00:00.000Z`);
const checkOutOf = (day: string) => new Date(`${day}T01:00:00.000Z`).toISOString();

/**
 * The next check-in at least an hour away: self check-in (open 48 hours before) is open, and the PIN the guest
 * gets does not work yet, so the page says from when it does.
 */
function nextCheckInDay(): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(Date.now());
  return checkInOf(today).getTime() - Date.now() >= 3_600_000 ? today : plusDays(today, 1);
}

type State = { endsAt: string; keys: { id: string; pin: string; expiresAt: string }[] };
const stayDb = <T>(input: GuestExtensionDbInput) => e2eScript<T>('e2e/guest-extension-db.ts', input);
const digits = async (page: Page) => ((await page.getByTestId('guest-pin').textContent()) ?? '').replace(/\D/g, '');

for (const language of ['en', 'ja'] as const) {
  test(`a guest's whole stay on one page left open, a second phone following (${language})`, async ({
    browser,
    baseURL,
    tenant,
  }) => {
    test.setTimeout(120_000);
    const w = (key: string) => words(language, key);
    const like = (key: string) => wordsLike(language, key);

    // The property: self check-in from 48 hours before, paid at the property, Japan's register.
    const facility: SelfCheckInDbInput = {
      op: 'facility',
      tenantId: tenant.id,
      facilityId: tenant.facilityId,
      mode: 'self',
      opensHours: 48,
    };
    await e2eScript('e2e/self-check-in-db.ts', facility);
    cli('facility-update', '--tenant', tenant.id, '--facility', tenant.facilityId, '--registration', 'jp');

    // A night booked as the API books it; the key-link mail brings the guest's link, and no PIN.
    const checkIn = nextCheckInDay();
    const email = `journey-${language}-${Date.now().toString(36)}@example.com`;
    const { reservationId } = await stayDb<{ reservationId: string }>({
      op: 'stay',
      tenantId: tenant.id,
      roomId: tenant.rooms[0]!.id,
      checkIn,
      checkOut: plusDays(checkIn, 1),
      email,
    });
    const booked = await stayDb<State>({ op: 'state', tenantId: tenant.id, reservationId });
    const path = await mailed(email, /https?:\/\/[^\s"'<>]+(\/k\/[A-Za-z0-9_-]+)/);
    const mail = await mailed(email, /[\s\S]*\/k\/[A-Za-z0-9_-]+[\s\S]*/);
    for (const key of booked.keys) expect(mail).not.toContain(key.pin);

    // Two phones open the link; from here on neither is navigated or reloaded (the mark would be lost).
    const { context: first, page } = await phoneOn(browser, baseURL!, path, language);
    const { context: other, page: second } = await phoneOn(browser, baseURL!, path, language);
    for (const p of [page, second]) await p.evaluate(() => ((window as unknown as { __open: boolean }).__open = true));

    // Still to do: register, pay at the property, check in. No PIN yet, and checking in first is refused.
    const status = page.getByTestId('guest-key-status');
    for (const p of [page, second]) {
      await expect(p.getByTestId('guest-key-status')).toHaveText(w('guestHome.checkInOpen'));
      await expect(p.getByTestId('guest-todo')).toContainText(w('guestHome.todoHeading'));
      await expect(p.getByTestId('guest-todo').locator('li')).toHaveText([
        w('guestHome.todoRegister'),
        w('guestHome.todoPayAtProperty'),
        w('guestHome.todoCheckInNow'),
      ]);
      await expect(p.getByTestId('guest-pin')).toHaveCount(0);
    }
    await page.getByTestId('guest-check-in').click();
    await expect(page.getByTestId('guest-check-in-result')).toHaveText(w('guestHome.checkInRegistration'));
    await expect(page.getByTestId('guest-pin')).toHaveCount(0);

    // The register: a Japanese guest and a foreign one with a photo of the passport.
    await fillRegister(page, language === 'ja' ? JA : EN, pngFixture());
    await expect(page.locator('[data-todo="register"]')).toHaveCount(0);
    await expect(page.getByTestId('guest-todo').locator('li')).toHaveText([
      w('guestHome.todoPayAtProperty'),
      w('guestHome.todoCheckInNow'),
    ]);

    // Check-in: the PIN, and from when it works (the stay's start).
    const startsAt = checkInOf(checkIn).toISOString();
    await page.getByTestId('guest-check-in').click();
    await expect(status).toHaveText(like('guestStay.worksFromStatus'), { timeout: 30_000 });
    await expect(page.getByTestId('guest-pin')).toHaveText(/^(\s*\d){6}\s*$/);
    await expect(page.locator(`.guest-pin-block time[datetime="${startsAt}"]`)).toBeVisible();
    await expect(page.locator('[data-todo="check-in"]')).toHaveCount(0, { timeout: 15_000 });
    const pin = await digits(page);
    // The other phone, left open, shows the same key by itself.
    await expect(second.getByTestId('guest-pin')).toHaveText(new RegExp(pin.split('').join('\\s*')), {
      timeout: 20_000,
    });
    await expect(second.getByTestId('guest-key-status')).toHaveText(like('guestStay.worksFromStatus'));

    // A night more: the price first, paid at the property; then the new check-out, and the PIN works until then.
    const extend = page.getByTestId('guest-extend');
    const newEnd = checkOutOf(plusDays(checkIn, 2));
    await expect(extend.getByRole('heading', { name: w('guestExtend.title') })).toBeVisible();
    await extend.getByLabel(w('guestExtend.newEnd')).selectOption(newEnd);
    await expect(extend.getByTestId('guest-extend-price')).toHaveText(/[¥￥]10,000/);
    await expect(extend.getByText(w('guestExtend.payAtProperty'))).toBeVisible();
    await extend.getByTestId('guest-extend-confirm').click();
    await expect(extend.getByTestId('guest-extend-status')).toHaveText(like('guestExtend.extended'), {
      timeout: 20_000,
    });
    await expect(page.locator(`.guest-facts--stay time[datetime="${newEnd}"]`)).toBeVisible({ timeout: 15_000 });
    await expect(page.locator(`.guest-pin-block time[datetime="${newEnd}"]`)).toBeVisible({ timeout: 20_000 });
    expect(await digits(page)).toBe(pin);

    // Check-out, with its question first; the thank-you says the room cannot be entered again.
    await page.getByTestId('guest-check-out-start').click();
    await expect(page.getByRole('heading', { name: w('guestHome.checkOutConfirmTitle') })).toBeFocused();
    await page.getByTestId('guest-check-out-confirm').click();
    for (const p of [page, second]) {
      await expect(p.getByTestId('guest-ended')).toContainText(w('guestStay.thanksTitle'), { timeout: 20_000 });
      await expect(p.getByTestId('guest-no-reentry')).toHaveText(w('guestHome.noReentry'));
      await expect(p.getByTestId('guest-pin')).toHaveCount(0);
      // The same document all along: the page followed by itself.
      expect(await p.evaluate(() => (window as unknown as { __open?: boolean }).__open)).toBe(true);
    }
    await first.close();
    await other.close();
  });
}
