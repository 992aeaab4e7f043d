import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { devices, test as base, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { encode } from 'next-auth/jwt';
import { bookNight } from './helpers';
import type { MadeTenant, StaffMember, TenantInput } from './make-tenant';

export { expect } from '@playwright/test';
export type { MadeTenant, StaffMember };

const run = promisify(execFile);

/** The e2e server's data folder (playwright.config.ts starts it with UNLOCKOS_DATA_DIR=.data/e2e). */
const DATA_DIR = '.data/e2e';
/** next-auth's session cookie on plain http (on https it is `__Secure-next-auth.session-token`). */
const SESSION_COOKIE = 'next-auth.session-token';
/** As long as a session made by signing in (lib/auth/auth-options.ts). */
const SESSION_MAX_AGE = 12 * 60 * 60;

/**
 * The secret the server signs sessions with: NEXTAUTH_SECRET when the run was given one (the server
 * inherits it), else the one the launcher generated into the data folder — as the CLI finds it.
 */
function sessionSecret(): string {
  if (process.env.NEXTAUTH_SECRET) return process.env.NEXTAUTH_SECRET;
  return (JSON.parse(readFileSync(`${DATA_DIR}/secrets.json`, 'utf8')) as { nextauthSecret: string }).nextauthSecret;
}

/** A session token as next-auth makes one at sign-in: the user's id in `uid` (the jwt callback). */
export async function sessionToken(user: { id: string; email: string }): Promise<string> {
  return encode({
    token: { uid: user.id, sub: user.id, email: user.email, name: null },
    secret: sessionSecret(),
    maxAge: SESSION_MAX_AGE,
  });
}

/** Signs `context` in as `user` by setting the session cookie, without the sign-in form. */
export async function signInAs(context: BrowserContext, user: StaffMember, baseURL: string): Promise<void> {
  await context.addCookies([
    {
      name: SESSION_COOKIE,
      value: await sessionToken(user),
      url: baseURL,
      httpOnly: true,
      sameSite: 'Lax',
      expires: Math.floor(Date.now() / 1000) + SESSION_MAX_AGE,
    },
  ]);
}

/** Makes a tenant of its own in the e2e server's database (e2e/make-tenant.ts). */
export async function makeTenant(
  name: string,
  rooms = 1,
  timeZone = 'UTC',
  facility = true,
  oneTimeDesk = false,
): Promise<MadeTenant> {
  const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 36 ** 4).toString(36)}`;
  const input: TenantInput = { name, rooms, tag, timeZone, facility, oneTimeDesk };
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'e2e/make-tenant.ts', JSON.stringify(input)], {
    env: { ...process.env, UNLOCKOS_DATA_DIR: DATA_DIR },
    timeout: 60_000,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as MadeTenant;
}

type Fixtures = {
  /** How many rooms the test's tenant has (`test.use({ rooms: 2 })`). */
  rooms: number;
  /** The IANA zone of the tenant's facility (`test.use({ facilityZone: 'Asia/Tokyo' })`). */
  facilityZone: string;
  /** Whether the tenant starts with a facility and rooms (`test.use({ facility: false })`: a brand-new tenant). */
  facility: boolean;
  /** This test's own tenant, new for every test and every retry: nobody else books its rooms. */
  tenant: MadeTenant;
  /** The test's page, signed in as the tenant's front desk. */
  deskPage: Page;
  /** A page in a browser context of its own, signed in as the tenant's manager. */
  managerPage: Page;
};

// Each fixture hands its value on with `provide` (Playwright calls it `use`, a name React's lint rule claims).
export const test = base.extend<Fixtures>({
  rooms: [1, { option: true }],
  facilityZone: ['UTC', { option: true }],
  facility: [true, { option: true }],
  tenant: async ({ rooms, facilityZone, facility }, provide, testInfo) => {
    await provide(await makeTenant(testInfo.titlePath.at(-1)!.slice(0, 40), rooms, facilityZone, facility));
  },
  deskPage: async ({ page, tenant, baseURL }, provide) => {
    await signInAs(page.context(), tenant.desk, baseURL!);
    await provide(page);
  },
  managerPage: async ({ browser, tenant, baseURL }, provide) => {
    const context = await browser.newContext();
    await signInAs(context, tenant.manager, baseURL!);
    await provide(await context.newPage());
    await context.close();
  },
});

/**
 * The front desk, on a desktop browser of its own, books `guestName` a night from today in the tenant's first
 * room; its context and page (on the reservation) and the guest link's path, for the guest's phone to open.
 */
export async function deskBooksTonight(browser: Browser, tenant: MadeTenant, baseURL: string, guestName: string) {
  const { defaultBrowserType: _ignored, ...desktop } = devices['Desktop Chrome'];
  const desk = await browser.newContext(desktop);
  await signInAs(desk, tenant.desk, baseURL);
  const deskPage = await desk.newPage();
  await bookNight(deskPage, { day: new Date(), guestName, roomId: tenant.rooms[0]!.id });
  const guestPath = new URL((await deskPage.getByTestId('guest-url').textContent())!.trim()).pathname;
  return { desk, deskPage, guestPath };
}

/** A guest's phone (Pixel 7, `language` first) opened on `path`; close its context when done. */
export async function phoneOn(browser: Browser, baseURL: string, path: string, language: 'en' | 'ja') {
  const { defaultBrowserType: _ignored, ...phone } = devices['Pixel 7'];
  const context = await browser.newContext({
    ...phone,
    baseURL,
    locale: language === 'ja' ? 'ja-JP' : 'en-GB',
    extraHTTPHeaders: { 'accept-language': language },
  });
  const page = await context.newPage();
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  return { context, page };
}

/** A Japanese guest's phone (Pixel 7, `ja` first) opened on `path`; close its context when done. */
export async function japanesePhoneOn(browser: Browser, baseURL: string, path: string) {
  return phoneOn(browser, baseURL, path, 'ja');
}
