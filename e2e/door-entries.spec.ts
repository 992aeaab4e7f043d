import { readFile } from 'node:fs/promises';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test, type MadeTenant } from './fixtures';
import { checkInButton, cli, services } from './helpers';

// The door's own record at the desk (issue 33), in a tenant of its own whose room's door is a lock of the simulator
// (TTLock's open platform, with a gateway): the desk opens it remotely, the guest's code opens it, the worker reads
// the lock's records every minute, and the desk, the reservation's history and the manager's audit log show them.

const MINUTE = 60_000;
const DAY = 86_400_000;
/** The worker reads each lock's records once a minute: an opening reaches the pages within about that. */
const RECORDS_READ = 150_000;

/** Books a stay in the tenant's first room that began half an hour ago (its check-in is open), through the API. */
async function stayStartedAlready(request: APIRequestContext, tenant: MadeTenant, guest: string): Promise<string> {
  const { key } = cli('api-key-create', '--tenant', tenant.id, '--name', 'doors') as { key: string };
  const startsAt = new Date(Math.floor((Date.now() - 30 * MINUTE) / MINUTE) * MINUTE);
  const booked = await request.post('/api/v1/booking-groups', {
    headers: { authorization: `Bearer ${key}` },
    data: {
      guest: { name: guest },
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
  const body = (await booked.json()) as { data: { reservations: { id: string }[] } };
  return body.data.reservations[0]!.id;
}

/** Reloads until `locator` passes `check` (what the worker reads arrives on its own schedule). */
async function untilShown(page: Page, check: () => Promise<void>, timeout = RECORDS_READ): Promise<void> {
  await expect(async () => {
    await page.reload();
    await check();
  }).toPass({ timeout, intervals: [2_000, 5_000, 10_000] });
}

/** The door's row of the reservation's doors, by the lock's name. */
function doorRow(page: Page, lockName: string): Locator {
  return page.getByTestId('room-door').filter({ hasText: lockName });
}

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('the desk opens a door remotely, with a reason, sees it opened, and the door record names who', async ({
    deskPage: page,
    tenant,
  }) => {
    test.setTimeout(RECORDS_READ + 60_000);
    const lockName = tenant.rooms[0]!.lockDevice;
    const guest = `Locked Out ${Date.now().toString(36)}`;
    const reservationId = await stayStartedAlready(page.request, tenant, guest);

    await page.goto(`/desk/reservations/${reservationId}`);
    const doors = page.getByTestId('reservation-doors');
    await expect(doors.getByRole('heading', { level: 2, name: 'Doors' })).toBeVisible();
    const door = doorRow(page, lockName);
    await expect(door).toContainText('own door');

    // The confirm step asks why, and refuses without a reason.
    await door.getByRole('button', { name: `Open door · ${lockName}` }).click();
    const dialog = page.getByRole('dialog', { name: `Open ${lockName} now?` });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('Open it only for someone you know may enter Room 101.');
    // It fits the phone's screen.
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await dialog.getByRole('button', { name: 'Open door now' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Enter a reason.');
    await expect(dialog.getByLabel('Reason')).toHaveAttribute('aria-invalid', 'true');

    await dialog.getByLabel('Reason').fill('Guest locked out, ID checked');
    await dialog.getByRole('button', { name: 'Open door now' }).click();
    await expect(dialog).toBeHidden();
    const outcome = door.getByTestId('open-door-outcome');
    await expect(outcome).toHaveText(new RegExp(`^${lockName} opened at \\d{2}:\\d{2}\\.$`));
    await expect(outcome).toBeFocused();

    // The reservation's history holds the request with its reason, by the person who asked.
    const requested = page.getByTestId('timeline-event').and(page.locator('[data-action="door.unlocked_remotely"]'));
    await expect(requested).toContainText('Door opened remotely');
    await expect(requested).toContainText('Guest locked out, ID checked');
    await expect(requested).toContainText(`desk ${tenant.desk.email.split('@')[0]!.slice('desk-'.length)}`);

    // The room's page: its door record shows the opening once the worker has read the lock, naming who and why.
    await page.getByTestId('room-page-link').click();
    await expect(page).toHaveURL(new RegExp(`/desk/rooms/${tenant.rooms[0]!.id}$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Room 101' })).toBeVisible();
    await expect(page.getByTestId('room-stay').filter({ hasText: guest })).toBeVisible();
    await untilShown(page, async () => {
      const entry = page.getByTestId('door-entry').and(page.locator('[data-method="app"]')).first();
      await expect(entry).toContainText('Opened remotely by desk', { timeout: 1_000 });
      await expect(entry).toContainText('Why: Guest locked out, ID checked');
      await expect(entry).toContainText(lockName);
    });

    // Back on the reservation: the opening follows the request that caused it, naming who.
    await page.goto(`/desk/reservations/${reservationId}`);
    const opening = page.getByTestId('timeline-event').and(page.locator('[data-action="door.entry"]'));
    await expect(opening).toContainText(`Door opened — ${lockName}`);
    await expect(opening).toContainText('Opened remotely by desk');
    const actions = await page
      .getByTestId('timeline-event')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-action')));
    expect(actions.slice(-2)).toEqual(['door.unlocked_remotely', 'door.entry']);
  });
});

test('the guest’s code opens the door: the desk shows the arrival, the history the entry, and the manager finds it in the audit log and its CSV', async ({
  deskPage: page,
  managerPage: manager,
  tenant,
}) => {
  test.setTimeout(RECORDS_READ + 90_000);
  const lockName = tenant.rooms[0]!.lockDevice;
  const guest = `Arriving ${Date.now().toString(36)}`;
  const reservationId = await stayStartedAlready(page.request, tenant, guest);

  // Checked in at the desk: the new PIN is handed over, and reaches the door.
  await page.goto(`/desk/reservations/${reservationId}`);
  await expect(page.getByTestId('reservation-arrived')).toHaveText('Not yet: the guest’s code has not opened the door');
  await checkInButton(page).click();
  const pin = (await page.getByTestId('checkin-new-pin').textContent())!.trim();
  expect(pin).toMatch(/^\d{4,}$/);
  const activeKey = page.locator('[data-testid="key-card"][data-key-status="active"]');
  await untilShown(
    page,
    () => expect(activeKey.getByTestId('door-state')).toHaveText('Set on lock', { timeout: 1_000 }),
    45_000,
  );

  // The guest types it at the door.
  const opened = await fetch(`${services().simulatorUrl}/_control/locks/${lockName}/open`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ pin }),
  });
  expect(opened.status).toBe(200);

  // The desk's day: the guest in house has arrived (a time of today in the facility's zone, or with its date when the
  // opening was before midnight and the page is read after).
  await page.goto('/desk');
  const row = page.getByTestId('day-in-house').getByTestId('stay-row').filter({ hasText: guest });
  await untilShown(page, () =>
    expect(row.getByTestId('arrived')).toHaveText(/^Arrived (\d{1,2} [A-Z][a-z]{2} \d{4}, )?\d{2}:\d{2}$/, {
      timeout: 1_000,
    }),
  );
  const arrived = (await row.getByTestId('arrived').textContent())!;

  // The reservation says so too, and its history holds the opening: which door, by the guest's code.
  await row.getByRole('link', { name: new RegExp(`Open Room 101 · ${guest}`) }).click();
  await expect(page.getByTestId('reservation-arrived')).toHaveText(arrived);
  const entry = page.getByTestId('timeline-event').and(page.locator('[data-action="door.entry"]'));
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText(`Door opened — ${lockName}`);
  await expect(entry).toContainText('Guest code');
  // In time order: after the check-in.
  const actions = await page
    .getByTestId('timeline-event')
    .evaluateAll((items) => items.map((item) => item.getAttribute('data-action')));
  expect(actions.indexOf('door.entry')).toBeGreaterThan(actions.indexOf('checkin.completed'));

  // The manager: every door event of Room 101, then the CSV of exactly those.
  await manager.goto('/manage/audit');
  await manager.getByLabel('Action', { exact: true }).selectOption('door.*');
  await expect(manager).toHaveURL(/[?&]action=door\.\*(&|$)/);
  await manager.getByLabel('Room', { exact: true }).selectOption({ label: '101' });
  const openedRow = manager.getByTestId('audit-row').and(manager.locator('[data-action="door.opened"]'));
  await expect(openedRow).toHaveCount(1);
  await expect(openedRow).toContainText('Door opened');
  await expect(openedRow).toContainText(guest);
  await expect(manager.getByTestId('audit-row').and(manager.locator(':not([data-action^="door."])'))).toHaveCount(0);

  const [download] = await Promise.all([manager.waitForEvent('download'), manager.getByTestId('audit-export').click()]);
  const csv = await readFile(await download.path(), 'utf8');
  const lines = csv.split('\n').filter((line) => line !== '');
  const doorOpened = lines.filter((line) => line.split(',')[1] === '"door.opened"');
  expect(doorOpened).toHaveLength(1);
  expect(doorOpened[0]).toContain(reservationId);
  expect(doorOpened[0]).toContain(tenant.rooms[0]!.id);
  expect(lines.slice(1).every((line) => /^"[^"]+","door\./.test(line))).toBe(true);
});
