import { randomInt } from 'node:crypto';
import type { Page } from '@playwright/test';
import { signAcuity } from '../lib/webhooks/acuity/verify';
import { acuityDatetime, startAcuityStandin } from '../tooling/testing/acuity-standin';
import { expect, test } from './fixtures';

// A manager connects Acuity Scheduling without the CLI: its credentials on the secrets page (a value
// of the wrong shape is refused, saying what it should be), an appointment type mapped on the booking
// sources page. Acuity's notification then books the stay through the worker, which reads the
// appointment from the local stand-in (ACUITY_API_URL, playwright.config.ts), and the webhook log and
// the desk's bookings say it came from Acuity.

const USER_ID = '424242';
const API_KEY = 'e2eacuitykey0123456789abcdef0123';
const TYPE_ID = 6161;

let standin: Awaited<ReturnType<typeof startAcuityStandin>>;
test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  standin = await startAcuityStandin({ port: Number(process.env.E2E_ACUITY_PORT) });
  standin.addAccount(USER_ID, API_KEY);
});
test.afterAll(async () => {
  await standin.close();
});

async function waitForRow(page: Page, selector: string): Promise<void> {
  await expect(async () => {
    await page.reload();
    await expect(page.locator(selector)).toHaveCount(1, { timeout: 1_000 });
  }).toPass({ timeout: 45_000, intervals: [500, 1_000, 2_000] });
}

test('a manager connects Acuity; its appointment books the mapped room and reads as from Acuity', async ({
  managerPage: page,
  request,
  tenant,
}) => {
  test.setTimeout(180_000);
  await page.goto('/manage/secrets');
  const card = page.getByTestId('secret-card-acuity');
  await expect(card).toContainText(`/api/webhooks/acuity/${tenant.id}`);
  await page.getByTestId('secret-value-acuity').fill(API_KEY);
  await page.getByTestId('secret-save-acuity').click();
  await expect(card).toContainText('Enter the user id (digits), a colon, then the API key');
  await expect(page.getByTestId('secret-status-acuity')).toHaveAttribute('data-set', 'false');
  await page.getByTestId('secret-value-acuity').fill(`${USER_ID}:${API_KEY}`);
  await page.getByTestId('secret-save-acuity').click();
  await expect(page.getByTestId('secret-saved-acuity')).toContainText('Saved (key version');
  await page.reload();
  await expect(page.getByTestId('secret-status-acuity')).toHaveAttribute('data-set', 'true');

  await page.goto('/manage/booking-sources');
  await page.getByTestId('booking-source-provider').selectOption('acuity');
  await page.getByTestId('booking-source-eventType').fill('consultation');
  await page.getByTestId('booking-source-add').click();
  await expect(page.getByTestId('booking-source-form')).toContainText('An Acuity appointment type is a number');
  await page.getByTestId('booking-source-provider').selectOption('acuity');
  await page.getByTestId('booking-source-eventType').fill(String(TYPE_ID));
  await page.getByTestId('booking-source-room').selectOption(tenant.rooms[0]!.id);
  await page.getByTestId('booking-source-add').click();
  await expect(page.getByTestId('booking-source-result')).toContainText('Event type mapped');
  await expect(page.getByTestId('booking-source-row')).toContainText('Acuity');
  await expect(page.getByTestId('booking-source-row')).toContainText(String(TYPE_ID));

  // Tomorrow 06:00 UTC for two hours, as Acuity keeps it; then its notification, signed with the API key.
  const id = randomInt(1_000_000, 9_000_000);
  const tomorrow = new Date(Date.now() + 86_400_000);
  const startsAt = new Date(Date.UTC(tomorrow.getUTCFullYear(), tomorrow.getUTCMonth(), tomorrow.getUTCDate(), 6));
  standin.put(USER_ID, {
    id,
    datetime: acuityDatetime(startsAt),
    duration: 120,
    appointmentTypeID: TYPE_ID,
    firstName: 'Aoi',
    lastName: 'Mori',
  });
  const body = new URLSearchParams({
    action: 'appointment.scheduled',
    id: String(id),
    calendarID: '1',
    appointmentTypeID: String(TYPE_ID),
  }).toString();
  const forged = await request.post(`/api/webhooks/acuity/${tenant.id}`, {
    data: body,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-acuity-signature': signAcuity(body, 'wrong') },
  });
  expect(forged.status()).toBe(400);
  const response = await request.post(`/api/webhooks/acuity/${tenant.id}`, {
    data: body,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-acuity-signature': signAcuity(body, API_KEY) },
  });
  expect(response.status(), await response.text()).toBe(200);
  expect(await response.json()).toEqual({ received: true, duplicate: false });

  await page.goto('/manage/webhooks?provider=acuity');
  await waitForRow(
    page,
    '[data-testid="webhook-event-row"][data-type="appointment.scheduled"][data-status="processed"]',
  );
  await expect(page.locator('[data-testid="webhook-event-row"]')).toContainText('Acuity');

  await page.goto('/desk/bookings');
  const booking = page.locator('tr').filter({ hasText: 'Aoi Mori' });
  await expect(booking).toContainText('Acuity');
  await expect(booking).toContainText(String(id));
});
