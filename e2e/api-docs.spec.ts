import { expect, test, type Locator } from '@playwright/test';

// The API reference is Swagger UI, served by the app itself (its prebuilt files, not compiled into the app). It
// must show the operations and the request examples of our own OpenAPI document without one request leaving this
// server: no CDN, no web fonts, no validator badge.

/** One operation of the reference by its summary, expanded. */
async function openOperation(reference: Locator, summary: RegExp): Promise<Locator> {
  const operation = reference.locator('.opblock').filter({ has: reference.page().getByText(summary) });
  await operation.locator('.opblock-summary').first().click();
  await expect(operation.locator('.opblock-body')).toBeVisible();
  return operation;
}

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
  const checkIn = await openOperation(reference, /^Complete the check-in/);
  await expect(checkIn.locator('.opblock-summary-path')).toContainText('/reservations/{id}/check-in');
  // The examples by their own names, from the OpenAPI document (the other one is `{"early": true}`).
  await expect(checkIn.locator('.examples-select')).toContainText('Check in once the check-in has opened');
  await expect(checkIn.locator('.body-param__example, .highlight-code').first()).toContainText('{}');

  const group = await openOperation(reference, /^Hold a group of reservations/);
  const example = group.locator('.body-param__example, .highlight-code').first();
  await expect(example).toContainText('"name": "Aiko Tanaka"');
  await expect(example).toContainText('"preIssueKeys": true');

  await page.waitForLoadState('networkidle');
  expect(elsewhere).toEqual([]);
  expect(errors).toEqual([]);
});

test('the reference’s script and styles are served by the app, and nothing else of their folder', async ({
  request,
}) => {
  const page = await request.get('/docs/api');
  const html = await page.text();
  const script = /\/docs\/api\/assets\/swagger-ui-bundle\.js\?v=[\w.-]+/.exec(html)?.[0];
  expect(script).toBeTruthy();
  const served = await request.get(script!);
  expect(served.status()).toBe(200);
  expect(served.headers()['content-type']).toContain('javascript');
  expect(served.headers()['cache-control']).toContain('immutable');
  for (const name of ['package.json', 'index.html', '..%2Fpackage.json', 'swagger-ui-bundle.js.map'])
    expect((await request.get(`/docs/api/assets/${name}`)).status()).toBe(404);
});

// The document's server is relative (/api/v1): "Try it out" calls the address the page was opened on, here
// 127.0.0.1 while APP_URL names localhost — not a fixed host or port.
test('"Try it out" on the API reference calls the API at the address the page is on', async ({ page, baseURL }) => {
  const url = new URL(baseURL!);
  url.hostname = '127.0.0.1';
  await page.goto(new URL('/docs/api', url).href);
  const rooms = await openOperation(page.getByTestId('api-reference'), /^List the rooms/);
  await rooms.getByRole('button', { name: 'Try it out' }).click();
  const sent = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/rooms');
  await rooms.getByRole('button', { name: 'Execute' }).click();
  const response = await sent;
  expect(new URL(response.url()).origin).toBe(url.origin);
  // No API key in the request: the API's own 401, with its request id.
  expect(response.status()).toBe(401);
  expect(response.headers()['x-request-id']).toBeTruthy();
  await expect(rooms.locator('.responses-wrapper')).toContainText('401');
});
