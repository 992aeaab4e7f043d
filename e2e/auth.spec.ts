import { signIn } from './helpers';
import { expect, test } from './fixtures';

// The one spec that signs in through the form, as a person would: every other spec sets the session
// cookie (e2e/fixtures.ts). Each test still has a tenant and staff of its own.
test.describe('staff sign-in', () => {
  test('a manager signs in, lands where they were going and sees the tenant', async ({ page, tenant }) => {
    await page.goto('/manage');
    await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fmanage/);
    await page.waitForLoadState('networkidle');
    await page.getByLabel('Email').fill(tenant.manager.email);
    await page.getByLabel('Password').fill(tenant.manager.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/manage$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Manage' })).toBeVisible();
    await expect(page.getByRole('cell', { name: tenant.rooms[0]!.lockDevice })).toBeVisible();
  });

  test('a wrong password shows one uniform message and no session', async ({ page, tenant }) => {
    await page.goto('/sign-in');
    await page.waitForLoadState('networkidle');
    await page.getByLabel('Email').fill(tenant.desk.email);
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

  test('a return address that normalises to another site is ignored after sign-in', async ({
    page,
    baseURL,
    tenant,
  }) => {
    await page.goto(`/sign-in?callbackUrl=${encodeURIComponent('/.//evil.example/x')}`);
    await page.waitForLoadState('networkidle');
    await page.getByLabel('Email').fill(tenant.desk.email);
    await page.getByLabel('Password').fill(tenant.desk.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/desk$/);
    expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
  });

  test('/manage refuses a front-desk user, who still has the desk', async ({ deskPage: page }) => {
    await page.goto('/desk');
    await expect(page.getByRole('heading', { level: 1, name: 'Today', exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Manage' })).toHaveCount(0);
    await page.goto('/manage');
    await expect(page).toHaveURL(/\/forbidden$/);
    await expect(page.getByRole('heading', { name: /access to this page/ })).toBeVisible();
  });

  test('signing out ends the session', async ({ page, tenant }) => {
    await signIn(page, tenant.manager.email, tenant.manager.password, '/desk');
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

// Staff of two tenants switching between them: e2e/accounts.spec.ts (an invited account joins, then switches).

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
