import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { signCalendly } from '../lib/webhooks/calendly/verify';
import { expect, test } from './fixtures';
import { cli } from './helpers';

const SIGNING_KEY = 'e2e-calendly-key';

type Invitee = { uri: string; eventType: string; startsAt: Date };

function calendlyBody(event: 'invitee.created' | 'invitee.canceled', invitee: Invitee, createdAt: Date): string {
  return JSON.stringify({
    event,
    created_at: createdAt.toISOString(),
    payload: {
      uri: invitee.uri,
      name: 'E2E Guest',
      email: 'e2e-guest@example.com',
      ...(event === 'invitee.canceled' ? { cancellation: { reason: 'guest changed plans' } } : {}),
      scheduled_event: {
        start_time: invitee.startsAt.toISOString(),
        end_time: new Date(invitee.startsAt.getTime() + 2 * 3_600_000).toISOString(),
        event_type: invitee.eventType,
      },
    },
  });
}

/** Delivers one signed Calendly event as Calendly would and expects it stored once. */
async function deliver(
  request: APIRequestContext,
  tenantId: string,
  event: 'invitee.created' | 'invitee.canceled',
  invitee: Invitee,
  createdAt: Date,
): Promise<void> {
  const raw = calendlyBody(event, invitee, createdAt);
  const response = await request.post(`/api/webhooks/calendly/${tenantId}`, {
    data: raw,
    headers: { 'content-type': 'application/json', 'calendly-webhook-signature': signCalendly(raw, SIGNING_KEY) },
  });
  expect(response.status(), await response.text()).toBe(200);
  expect(await response.json()).toEqual({ received: true, duplicate: false });
}

/** Reloads the log until `rows` shows `count` rows: the worker processes each event within seconds. */
async function waitForRows(page: Page, selector: string, count: number): Promise<void> {
  await expect(async () => {
    await page.reload();
    await expect(page.locator(selector)).toHaveCount(count, { timeout: 1_000 });
  }).toPass({ timeout: 45_000, intervals: [500, 1_000, 2_000] });
}

test.describe('webhook log', () => {
  test('shows that a Calendly cancellation arrived and was processed, and a late "created" refused', async ({
    managerPage: page,
    request,
    tenant,
  }) => {
    test.setTimeout(180_000);
    const run = randomUUID();
    const eventType = `https://api.calendly.com/event_types/E2E-${run}`;
    cli('secret-set', '--tenant', tenant.id, '--provider', 'calendly', '--value', SIGNING_KEY);
    cli(
      'booking-source-add',
      '--tenant',
      tenant.id,
      '--provider',
      'calendly',
      '--event-type',
      eventType,
      '--room',
      tenant.rooms[0]!.id,
    );

    // Tomorrow morning, in the tenant's own room.
    const tomorrow = new Date(Date.now() + 86_400_000);
    const startsAt = new Date(Date.UTC(tomorrow.getUTCFullYear(), tomorrow.getUTCMonth(), tomorrow.getUTCDate(), 6));
    const booked: Invitee = {
      uri: `https://api.calendly.com/scheduled_events/E2E-${run}/invitees/BOOKED`,
      eventType,
      startsAt,
    };
    const t0 = Date.now();

    await page.goto('/manage/webhooks?provider=calendly');
    await expect(page.getByRole('heading', { level: 1, name: 'Webhook log' })).toBeVisible();

    // 1. A booking, then its cancellation: the log answers "did the cancel arrive?".
    await deliver(request, tenant.id, 'invitee.created', booked, new Date(t0 - 60_000));
    await waitForRows(
      page,
      '[data-testid="webhook-event-row"][data-type="invitee.created"][data-status="processed"]',
      1,
    );
    await deliver(request, tenant.id, 'invitee.canceled', booked, new Date(t0 - 30_000));
    await waitForRows(
      page,
      '[data-testid="webhook-event-row"][data-type="invitee.canceled"][data-status="processed"]',
      1,
    );
    const cancelRow = page.locator('[data-testid="webhook-event-row"][data-type="invitee.canceled"]');
    await expect(cancelRow.getByTestId('webhook-event-type')).toHaveText('invitee.canceled');
    await expect(cancelRow.getByTestId('webhook-event-status')).toHaveText(/processed/i);
    await expect(cancelRow).toContainText('Calendly');

    // 2. The cancellation (made later at Calendly) arrives before its booking: the booking is refused, loudly.
    const late: Invitee = {
      uri: `https://api.calendly.com/scheduled_events/E2E-${run}/invitees/LATE`,
      eventType,
      startsAt: new Date(startsAt.getTime() + 86_400_000),
    };
    await deliver(request, tenant.id, 'invitee.canceled', late, new Date(t0 - 5_000));
    await deliver(request, tenant.id, 'invitee.created', late, new Date(t0 - 10_000));
    await waitForRows(
      page,
      '[data-testid="webhook-event-row"][data-type="invitee.created"][data-status="rejected"]',
      1,
    );
    const refused = page.locator(
      '[data-testid="webhook-event-row"][data-type="invitee.created"][data-status="rejected"]',
    );
    await expect(refused.getByTestId('webhook-event-status')).toHaveText(/rejected/i);
    await expect(refused.getByTestId('webhook-event-reason')).toHaveText('created_after_cancel');
    await expect(refused).toContainText('already cancelled');

    // The outcome filter keeps to the URL.
    await page.getByTestId('webhook-filter-status').selectOption('rejected');
    await page.getByTestId('webhook-filter-apply').click();
    await expect(page).toHaveURL(/[?&]status=rejected/);
    await expect(page).toHaveURL(/[?&]provider=calendly/);
    await expect(page.getByTestId('webhook-event-row')).toHaveCount(1);
  });
});
