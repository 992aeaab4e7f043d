import { expect, test } from './fixtures';
import { checkInButton, cli } from './helpers';

// A clerk's shift at the desk (issue 15, item 6), in a tenant of its own with two rooms:
// today's arrivals → the reservation → check in → move to the other room → extend by a night →
// check out; what the page says at each step, and which keys are live or revoked.

test.use({ rooms: 2 });

const MINUTE = 60_000;
const DAY = 86_400_000;

test('arrivals → check in → move → extend a night → check out', async ({ deskPage: page, tenant }) => {
  const guest = `Kenji Shift ${Date.now().toString(36)}`;
  // A stay that began half an hour ago (whole minutes: the desk's date fields have no seconds).
  const startsAt = new Date(Math.floor((Date.now() - 30 * MINUTE) / MINUTE) * MINUTE);
  const endsAt = new Date(startsAt.getTime() + DAY);
  const { key } = cli('api-key-create', '--tenant', tenant.id, '--name', 'shift') as { key: string };
  const booked = await page.request.post('/api/v1/booking-groups', {
    headers: { authorization: `Bearer ${key}` },
    data: {
      guest: { name: guest },
      reservations: [{ roomId: tenant.rooms[0]!.id, startsAt: startsAt.toISOString(), endsAt: endsAt.toISOString() }],
    },
  });
  expect(booked.status()).toBe(201);

  // Today's page: the arrival, opened from its row.
  await page.goto('/desk');
  const row = page.getByRole('row').filter({ hasText: guest });
  await expect(row).toHaveCount(1);
  await row.getByRole('link', { name: '101' }).click();
  await expect(page).toHaveURL(/\/desk\/reservations\//);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('101');

  // Check in.
  await checkInButton(page).click();
  await expect(page.getByTestId('checkin-result')).toContainText('Checked in. New PIN:');
  await expect(page.getByTestId('reservation-status')).toHaveText('Checked in');
  const keys = page.getByTestId('key-card');
  await expect(keys.and(page.locator('[data-key-status="active"]'))).toHaveCount(1);
  const firstKey = await keys.and(page.locator('[data-key-status="active"]')).getAttribute('data-key-id');

  // Move to room 102: the button and the confirmation name guest and room.
  await page.getByRole('button', { name: `Move ${guest} · Room 101 to another room` }).click();
  await expect(page.getByTestId('stay-move')).toContainText(`Move ${guest} out of room 101?`);
  await page.getByLabel('New room').selectOption({ label: 'Room 102' });
  await page.getByTestId('stay-move').getByLabel('Reason').fill('Water leak in 101');
  await page.getByRole('button', { name: `Confirm move of ${guest} · Room 101` }).click();
  const moved = page.getByTestId('stay-move-result');
  await expect(moved).toContainText(`${guest} is now in room 102`);
  await expect(moved).toBeFocused();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('102');
  // The old key is revoked (moved), a new one is live.
  await expect(page.locator(`[data-key-id="${firstKey}"]`)).toHaveAttribute('data-key-status', 'revoked');
  await expect(page.locator(`[data-key-id="${firstKey}"]`).getByTestId('key-revoked-reason')).toHaveText(
    'Moved to another room',
  );
  const live = keys.and(page.locator('[data-key-status="active"]'));
  await expect(live).toHaveCount(1);
  const movedKey = await live.getAttribute('data-key-id');
  expect(movedKey).not.toBe(firstKey);
  // The check-in banner no longer shows the old room's PIN as the "New PIN" (issue 28, item 12).
  await expect(page.getByTestId('checkin-new-pin')).toHaveCount(0);
  await expect(page.getByTestId('checkin-pin-replaced')).toContainText('no longer opens the door');

  // Extend by a night: one field for the departure (the guest is in, so the arrival is fixed).
  await page.getByRole('button', { name: `Change dates of ${guest} · Room 102` }).click();
  await expect(page.getByTestId('stay-dates').getByLabel('Arrives')).toHaveCount(0);
  const newEnd = new Date(endsAt.getTime() + DAY);
  await page.getByTestId('stay-dates').getByLabel('Departs').fill(newEnd.toISOString().slice(0, 16));
  await page.getByRole('button', { name: `Save new dates of ${guest} · Room 102` }).click();
  const extended = page.getByTestId('stay-dates-result');
  await expect(extended).toContainText('New dates saved');
  await expect(extended).toBeFocused();
  await expect(
    page
      .locator('time')
      .filter({ hasText: String(newEnd.getUTCDate()) })
      .first(),
  ).toBeVisible();
  // The same key follows the new window (no new PIN for a date change).
  await expect(live).toHaveAttribute('data-key-id', movedKey!);
  await expect(page.getByTestId('reservation-timeline')).toContainText('Reservation dates changed');

  // Check out: every key ends.
  await page.getByRole('button', { name: `Check out ${guest} · Room 102` }).click();
  await expect(page.getByTestId('stay-check-out')).toContainText(`Check ${guest} out of room 102 now?`);
  await page.getByRole('button', { name: `Confirm check-out of ${guest} · Room 102` }).click();
  const out = page.getByTestId('stay-check-out-result');
  await expect(out).toContainText(`${guest} is checked out of room 102`);
  await expect(out).toBeFocused();
  await expect(page.getByTestId('reservation-status')).toHaveText('Checked out');
  await expect(keys.and(page.locator('[data-key-status="active"], [data-key-status="pre_issued"]'))).toHaveCount(0);
  await expect(page.locator(`[data-key-id="${movedKey}"]`).getByTestId('key-revoked-reason')).toHaveText('Checked out');
  await expect(page.getByTestId('reservation-timeline')).toContainText('Check-out completed');
  // Checked out a night early (issue 28, item 12): the stay ends now, so the desk shows the room free.
  await page.goto(`/desk/bookings/new`);
  await page.locator('#booking-check-in').fill(new Date(Date.now() + DAY).toISOString().slice(0, 10));
  await page.locator('#booking-check-out').fill(new Date(Date.now() + 2 * DAY).toISOString().slice(0, 10));
  await page.getByRole('button', { name: 'Show available rooms' }).click();
  await expect(page.locator(`input[name="roomIds"][value="${tenant.rooms[1]!.id}"]`)).toBeEnabled();
});

test('the desk cancels a future booking with a reason, and corrects the guest’s details', async ({
  deskPage: page,
  tenant,
}) => {
  const guest = `Wrong Name ${Date.now().toString(36)}`;
  const startsAt = new Date(Math.floor((Date.now() + 3 * DAY) / MINUTE) * MINUTE);
  const { key } = cli('api-key-create', '--tenant', tenant.id, '--name', 'cancel') as { key: string };
  const booked = await page.request.post('/api/v1/booking-groups', {
    headers: { authorization: `Bearer ${key}` },
    data: {
      guest: { name: guest, email: 'wrong@example.test' },
      reservations: [
        {
          roomId: tenant.rooms[0]!.id,
          startsAt: startsAt.toISOString(),
          endsAt: new Date(startsAt.getTime() + DAY).toISOString(),
        },
      ],
    },
  });
  expect(booked.status()).toBe(201);
  const reservationId = (await booked.json()).data.reservations[0].id as string;
  await page.goto(`/desk/reservations/${reservationId}`);

  // Correct the guest: name and email.
  await page.getByRole('button', { name: `Correct the details of ${guest} · Room 101` }).click();
  const details = page.getByTestId('stay-guest-details');
  await details.getByRole('textbox', { name: 'Name', exact: true }).fill('Right Name');
  await details.getByRole('textbox', { name: 'Email', exact: true }).fill('two@example.test, three@example.test');
  await page.getByRole('button', { name: `Save the details of ${guest} · Room 101` }).click();
  await expect(details).toContainText('Check the name');
  await details.getByRole('textbox', { name: 'Email', exact: true }).fill('right@example.test');
  await page.getByRole('button', { name: `Save the details of ${guest} · Room 101` }).click();
  await expect(page.getByTestId('stay-guest-details-result')).toContainText('Guest details saved.');
  await expect(page.locator('.page__lead')).toContainText('Right Name');
  await expect(page.getByTestId('reservation-timeline')).toContainText('Guest’s details corrected');

  // Cancel the booking: a reason is required and kept.
  await page.getByRole('button', { name: 'Cancel the booking of Right Name · Room 101' }).click();
  await expect(page.getByTestId('stay-cancel')).toContainText('Cancel the booking of Right Name in room 101?');
  await page.getByTestId('stay-cancel').getByLabel('Reason').fill('Guest called to cancel');
  await page.getByRole('button', { name: 'Confirm cancellation of Right Name · Room 101' }).click();
  await expect(page.getByTestId('stay-cancel-result')).toContainText('is cancelled');
  await expect(page.getByTestId('reservation-status')).toHaveText('Cancelled');
  await expect(page.getByTestId('reservation-timeline')).toContainText('Guest called to cancel');
});

test('an open desk screen shows a booking made elsewhere', async ({ deskPage: page, tenant }) => {
  await page.goto('/desk');
  const guest = `Walk In ${Date.now().toString(36)}`;
  await expect(page.getByRole('row').filter({ hasText: guest })).toHaveCount(0);
  const { key } = cli('api-key-create', '--tenant', tenant.id, '--name', 'elsewhere') as { key: string };
  // Began half an hour ago, so it is one of today's arrivals at any hour (one starting later could fall on
  // tomorrow when the run is near midnight in the facility's zone).
  const startsAt = new Date(Date.now() - 30 * MINUTE);
  const booked = await page.request.post('/api/v1/booking-groups', {
    headers: { authorization: `Bearer ${key}` },
    data: {
      guest: { name: guest },
      reservations: [
        {
          roomId: tenant.rooms[1]!.id,
          startsAt: startsAt.toISOString(),
          endsAt: new Date(startsAt.getTime() + DAY).toISOString(),
        },
      ],
    },
  });
  expect(booked.status()).toBe(201);
  // The page polls every 30 s when idle and on focus: bring the tab back, as a clerk would.
  await page.evaluate(() => window.dispatchEvent(new Event('focus')));
  await expect(page.getByRole('row').filter({ hasText: guest })).toHaveCount(1, { timeout: 45_000 });
});

test('a staff code for a room: made with one field per bound, its PIN handed over once, then revoked', async ({
  deskPage: page,
  tenant,
}) => {
  const room = tenant.rooms[0]!;
  await page.goto(`/desk/rooms/${room.id}/staff-codes`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Staff codes · Room 101');
  await expect(page.getByTestId('staff-code')).toHaveCount(0);
  await page.getByLabel('Label').fill('Daily clean');
  await page.getByLabel('Purpose').selectOption('housekeeping');
  await expect(page.getByLabel('From')).toHaveAttribute('type', 'datetime-local');
  await page.getByRole('button', { name: 'Create a staff code for room 101' }).click();
  const created = page.getByTestId('staff-code-created');
  await expect(created).toContainText(/Code “Daily clean” for room 101 created\. PIN: \d+/);
  await expect(created).toBeFocused();
  const code = page.getByTestId('staff-code');
  await expect(code).toHaveCount(1);
  await expect(code).toHaveAttribute('data-key-status', 'active');
  await expect(code).toContainText('Housekeeping');

  await code.getByLabel('Reason').fill('Cleaning done');
  await code.getByRole('button', { name: 'Revoke key' }).click();
  await expect(page.getByTestId('staff-code')).toHaveAttribute('data-key-status', 'revoked');
});
