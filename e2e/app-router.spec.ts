import { expect, test } from './fixtures';

test('every address under /api answers like the API: a JSON 404 or 405 with a request id', async ({ request }) => {
  const unknown = await request.delete('/api/v1/nowhere/at-all', { headers: { 'x-request-id': 'e2e-app-router-404' } });
  expect(unknown.status()).toBe(404);
  expect(unknown.headers()['content-type']).toMatch(/^application\/json/);
  expect(unknown.headers()['x-request-id']).toBe('e2e-app-router-404');
  expect(await unknown.json()).toEqual({ error: { code: 'not_found', message: 'There is nothing at this address.' } });

  // An address that merely starts like a route the proxy skips is still the API's 404.
  const lookalike = await request.get('/api/pingx');
  expect(lookalike.status()).toBe(404);
  expect((await lookalike.json()).error.code).toBe('not_found');
  expect((await request.get('/api/ping')).status()).toBe(200);

  const outsideV1 = await request.get('/api/nope');
  expect(outsideV1.status()).toBe(404);
  expect(outsideV1.headers()['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  expect((await outsideV1.json()).error.code).toBe('not_found');

  const wrongMethod = await request.put('/api/v1/rooms', { data: {} });
  expect(wrongMethod.status()).toBe(405);
  expect(wrongMethod.headers()['allow']).toBe('GET');
  expect(wrongMethod.headers()['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  expect(await wrongMethod.json()).toEqual({
    error: { code: 'method_not_allowed', message: 'This address accepts GET.', allow: ['GET'] },
  });

  const healthPost = await request.post('/api/health');
  expect(healthPost.status()).toBe(405);
  expect(healthPost.headers()['allow']).toBe('GET');

  // The address and method a route serves still reach it (here: refused for want of an API key).
  const served = await request.get('/api/v1/rooms');
  expect(served.status()).toBe(401);
  expect((await served.json()).error.code).toBe('unauthorized');
});

test('an unknown address at the front desk shows the desk’s own not-found page, inside the desk', async ({
  deskPage: page,
}) => {
  // A real 404: no loading state sits above the catch-all, so nothing was streamed before "not found".
  const response = await page.goto('/desk/whatever/else');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Not found at the front desk' })).toBeVisible();
  // The section's shell stays: staff navigation and a way back.
  await expect(page.getByRole('link', { name: 'Back to today’s arrivals' })).toHaveAttribute('href', '/desk');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();

  // A reservation id nobody has (or another tenant's) is the same 404 inside the desk.
  const missing = await page.goto('/desk/reservations/00000000-0000-4000-8000-000000000000');
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Not found at the front desk' })).toBeVisible();
});

test('an unknown address in management shows management’s not-found page', async ({ managerPage: page }) => {
  const response = await page.goto('/manage/nothing-here');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Not found in management' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to the overview' })).toHaveAttribute('href', '/manage');
});

test('a guest link that is not valid says so in the guest’s language', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'ja-JP', extraHTTPHeaders: { 'accept-language': 'ja' } });
  const page = await context.newPage();
  const response = await page.goto('/k/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
  expect(response?.status()).toBe(404);
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
  await expect(page.getByRole('heading', { name: 'このリンクは無効か、有効期限が切れています。' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'サインイン' })).toHaveCount(0);
  await context.close();
});
