import { expect, test } from '@playwright/test';
import { FRONT_DESK, MANAGER, signIn } from './helpers';

test.describe('staff sign-in', () => {
  test('a manager signs in, lands where they were going and sees the tenant', async ({ page }) => {
    await page.goto('/manage');
    await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fmanage/);
    await page.waitForLoadState('networkidle');
    await page.getByLabel('Email').fill(MANAGER);
    await page.getByLabel('Password').fill('unlockos-demo');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/manage$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Manage' })).toBeVisible();
    await expect(page.getByRole('cell', { name: 'lock-sakura-101' })).toBeVisible();
  });

  test('a wrong password shows one uniform message and no session', async ({ page }) => {
    await page.goto('/sign-in');
    await page.waitForLoadState('networkidle');
    await page.getByLabel('Email').fill(FRONT_DESK);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.locator('#sign-in-error')).toHaveText(
      'Email or password is incorrect. After repeated failures, sign-in from this network pauses for a few minutes.',
    );
    await expect(page).toHaveURL(/\/sign-in/);
    expect(page.url()).not.toContain('not%20the%20password');
    await page.goto('/desk');
    await expect(page).toHaveURL(/\/sign-in/);
  });

  test('a return address that normalises to another site is ignored after sign-in', async ({ page, baseURL }) => {
    await page.goto(`/sign-in?callbackUrl=${encodeURIComponent('/.//evil.example/x')}`);
    await page.waitForLoadState('networkidle');
    await page.getByLabel('Email').fill(FRONT_DESK);
    await page.getByLabel('Password').fill('unlockos-demo');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/desk$/);
    expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
  });

  test('/manage refuses a front-desk user, who still has the desk', async ({ page }) => {
    await signIn(page, FRONT_DESK, undefined, '/desk');
    await expect(page.getByRole('heading', { level: 1, name: /Today.s arrivals/ })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Manage' })).toHaveCount(0);
    await page.goto('/manage');
    await expect(page).toHaveURL(/\/forbidden$/);
    await expect(page.getByRole('heading', { name: /access to this page/ })).toBeVisible();
  });

  test('signing out ends the session', async ({ page }) => {
    await signIn(page, MANAGER, undefined, '/desk');
    await page.goto('/sign-out');
    await page.waitForLoadState('networkidle');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/sign-in/);
    await page.goto('/manage');
    await expect(page).toHaveURL(/\/sign-in/);
  });
});

test.describe('language', () => {
  test('follows the browser and can be switched', async ({ browser }) => {
    const context = await browser.newContext({ locale: 'ja-JP' });
    const page = await context.newPage();
    await page.goto('/sign-in');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
    await expect(page.getByRole('heading', { level: 1, name: 'サインイン' })).toBeVisible();
    await page.getByLabel('言語').selectOption('en');
    await page.getByRole('button', { name: '言語を変更' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await context.close();
  });
});

test.describe('tenant switcher', () => {
  test('staff of two tenants switch between them', async ({ page }) => {
    await signIn(page, 'ops@harbor.example', undefined, '/desk');
    await expect(page.getByText('Harbor Cowork').first()).toBeVisible();
    await page.getByLabel('Switch tenant').selectOption({ label: 'Sakura Inn Kyoto (Front desk)' });
    await page.getByRole('button', { name: 'Switch', exact: true }).click();
    await expect(page.getByText('Reservations in Sakura Inn Kyoto')).toBeVisible();
  });
});

test('every response carries a request id and the security headers', async ({ request }) => {
  const response = await request.get('/sign-in');
  const headers = response.headers();
  expect(headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['x-powered-by']).toBeUndefined();
  const health = await request.get('/api/health');
  expect(await health.json()).toEqual({ status: 'ok', checks: { db: 'ok', worker: 'ok' } });
  expect(health.headers()['x-request-id']).toBeTruthy();
  // The webhook routes skip the proxy; they still answer every method and address with an id.
  const wrongMethod = await request.get('/api/webhooks/stripe');
  expect(wrongMethod.status()).toBe(405);
  expect(wrongMethod.headers()['allow']).toBe('POST');
  expect(wrongMethod.headers()['x-request-id']).toBeTruthy();
  expect((await wrongMethod.json()).error.code).toBe('method_not_allowed');
  const nowhere = await request.post('/api/webhooks/nowhere/at-all', { data: {} });
  expect(nowhere.status()).toBe(404);
  expect(nowhere.headers()['x-request-id']).toBeTruthy();
  expect((await nowhere.json()).error.code).toBe('not_found');
  const unknownApi = await request.get('/api/v1/nowhere');
  expect(unknownApi.status()).toBe(404);
  expect(unknownApi.headers()['x-request-id']).toBeTruthy();
});
