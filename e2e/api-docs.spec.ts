import { expect, test } from '@playwright/test';

// The API reference is Scalar's viewer, bundled with the app. It must show the operations and the
// request examples of our own OpenAPI document without one request leaving this server: no CDN,
// no web fonts, no telemetry.

test('the API reference shows the operations and their request examples, and loads nothing from elsewhere', async ({
  page,
  baseURL,
}) => {
  const origin = new URL(baseURL!).origin;
  const elsewhere: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol !== 'data:' && url.protocol !== 'blob:' && url.origin !== origin) elsewhere.push(request.url());
  });
  // A request the Content-Security-Policy refuses never reaches the network: it is a console error.
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));

  await page.goto('/docs/api');
  await expect(page.getByRole('heading', { level: 1, name: 'API reference' })).toBeVisible();
  await expect(page.getByTestId('openapi-link')).toHaveAttribute('href', '/api/v1/openapi.json');

  const reference = page.getByTestId('api-reference');
  await reference.getByRole('link', { name: /^Complete the check-in/ }).click();
  await expect(reference.getByRole('heading', { name: /^Complete the check-in/ })).toBeVisible();
  const checkInExample = reference.getByRole('group', { name: 'Request Example for post/reservations/{id}/check-in' });
  await expect(checkInExample).toContainText('/api/v1/reservations/c3d2e1f0-a9b8-4c7d-8e6f-5a4b3c2d1e0f/check-in');
  // The example's own name, from the OpenAPI document (the other one is `{"early": true}`).
  await expect(checkInExample).toContainText('Check in once the check-in has opened');
  await expect(checkInExample).toContainText(`--data '{}'`);

  await reference.getByRole('link', { name: /^Hold a group of reservations/ }).click();
  const groupExample = reference.getByRole('group', { name: 'Request Example for post/booking-groups' });
  await expect(groupExample).toContainText('"name": "Aiko Tanaka"');
  await expect(groupExample).toContainText('"preIssueKeys": true');

  await page.waitForLoadState('networkidle');
  expect(elsewhere).toEqual([]);
  expect(errors).toEqual([]);
});

// The document's server is relative (/api/v1): "Test Request" calls the address the page was opened
// on, here 127.0.0.1 while APP_URL names localhost — not a fixed host or port.
test('"Test Request" on the API reference calls the API at the address the page is on', async ({ page, baseURL }) => {
  const url = new URL(baseURL!);
  url.hostname = '127.0.0.1';
  await page.goto(new URL('/docs/api', url).href);
  const reference = page.getByTestId('api-reference');
  await reference.getByRole('link', { name: /^List the rooms/ }).click();
  await reference
    .getByRole('button', { name: /Test Request/ })
    .first()
    .click();
  const sent = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/rooms');
  await page.getByRole('button', { name: /^Send/ }).first().click();
  const response = await sent;
  expect(new URL(response.url()).origin).toBe(url.origin);
  // No API key in the request: the API's own 401, with its request id.
  expect(response.status()).toBe(401);
  expect(response.headers()['x-request-id']).toBeTruthy();
});
