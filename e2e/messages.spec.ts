import { randomUUID } from 'node:crypto';
import { signCalendly } from '../lib/webhooks/calendly/verify';
import { expect, test } from './fixtures';
import { addCalendlySource, cli } from './helpers';

// The guest's link by email exactly once for a booking Calendly delivers five times (and that is
// replayed), through the running app: the worker sends it to npm start's own mail catcher, the
// manager reads it in the mailbox, the desk sees it sent, and the link opens the key page.

const SIGNING_KEY = 'e2e-messages-calendly-key';

test('a Calendly booking delivered five times and replayed mails the guest once, with the link', async ({
  managerPage,
  deskPage,
  request,
  tenant,
}) => {
  test.setTimeout(180_000);
  const run = randomUUID();
  const email = `guest-${run.slice(0, 8)}@example.com`;
  const eventType = `https://api.calendly.com/event_types/MSG-${run}`;
  addCalendlySource({ tenantId: tenant.id, roomId: tenant.rooms[0]!.id, signingKey: SIGNING_KEY, eventType });

  const startsAt = new Date(Date.now() + 2 * 86_400_000);
  const raw = JSON.stringify({
    event: 'invitee.created',
    created_at: new Date(Date.now() - 60_000).toISOString(),
    payload: {
      uri: `https://api.calendly.com/scheduled_events/MSG-${run}/invitees/ONE`,
      name: 'Mail Guest',
      email,
      scheduled_event: {
        start_time: startsAt.toISOString(),
        end_time: new Date(startsAt.getTime() + 86_400_000).toISOString(),
        event_type: eventType,
      },
    },
  });
  const from = new Date(Date.now() - 60_000).toISOString();
  const answers: boolean[] = [];
  for (let i = 0; i < 5; i++) {
    // Each delivery freshly signed, as Calendly's retries are.
    const response = await request.post(`/api/webhooks/calendly/${tenant.id}`, {
      data: raw,
      headers: { 'content-type': 'application/json', 'calendly-webhook-signature': signCalendly(raw, SIGNING_KEY) },
    });
    expect(response.status()).toBe(200);
    answers.push((await response.json()).duplicate);
  }
  expect(answers).toEqual([false, true, true, true, true]);

  // The manager's mailbox: one mail to the guest, carrying the link to the key page.
  const mails = managerPage.getByTestId('caught-mail').filter({ hasText: email });
  await managerPage.goto('/manage/mailbox');
  await expect(async () => {
    await managerPage.reload();
    await expect(mails).toHaveCount(1, { timeout: 1_000 });
  }).toPass({ timeout: 60_000, intervals: [500, 1_000, 2_000] });

  // A replay of the same event changes nothing: still one mail.
  cli(
    'webhooks-replay',
    '--provider',
    'calendly',
    '--tenant',
    tenant.id,
    '--from',
    from,
    '--to',
    new Date(Date.now() + 60_000).toISOString(),
  );
  // The replayed event is processed within seconds (webhooks.spec.ts); give it that long to (not) mail.
  await managerPage.waitForTimeout(5_000);
  await managerPage.reload();
  await expect(mails).toHaveCount(1);
  const mail = mails.first();
  await expect(mail.getByTestId('caught-mail-to')).toHaveText(email);
  await expect(mail).toContainText('stay.ics');
  const link = mail.getByTestId('caught-mail-text').locator('a[href*="/k/"]').first();
  const guestUrl = await link.getAttribute('href');
  expect(guestUrl).toMatch(/\/k\/[A-Za-z0-9_-]{43}$/);

  // The desk's reservation page shows the message as sent.
  const reservationHref = await managerPage
    .getByTestId('message-row')
    .filter({ hasText: email })
    .first()
    .getByRole('link')
    .getAttribute('href');
  expect(reservationHref).toMatch(/^\/desk\/reservations\/[0-9a-f-]{36}$/);
  await deskPage.goto(reservationHref!);
  const sent = deskPage.getByTestId('guest-messages').getByTestId('message-row');
  await expect(sent).toHaveCount(1);
  await expect(sent).toHaveAttribute('data-status', 'sent');
  await expect(sent).toContainText(email);
  await expect(deskPage.getByRole('button', { name: /Resend the guest link/ })).toBeVisible();

  // The link opens the guest's key page.
  const guest = await deskPage.context().newPage();
  const response = await guest.goto(new URL(guestUrl!).pathname);
  expect(response?.status()).toBe(200);
  await expect(guest.getByTestId('guest-key-status')).toBeVisible();
});
