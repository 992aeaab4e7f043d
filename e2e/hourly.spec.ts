import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test } from './fixtures';
import type { DeskDayInput } from './desk-day-data';

// Runs in the "desktop" project, in a tenant of its own; the test adds a facility rented by the hour
// (Asia/Tokyo, open 09:00–18:00) with "Meeting A" at ¥3,000 per hour, "Meeting room (hourly)".

const run = promisify(execFile);

async function hourlyFacility(tenantId: string): Promise<{ facilityId: string; roomId: string }> {
  const input: DeskDayInput = { op: 'hourly', tenantId };
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'e2e/desk-day-data.ts', JSON.stringify(input)], {
    env: { ...process.env, UNLOCKOS_DATA_DIR: '.data/e2e' },
    timeout: 60_000,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as { facilityId: string; roomId: string };
}

/** Tomorrow's date in Tokyo. */
function tomorrowInTokyo(): string {
  return new Date(Date.now() + 9 * 3_600_000 + 86_400_000).toISOString().slice(0, 10);
}

test('a clerk books a meeting room for two hours, sees 2 × the hourly rate and the rate name, and cannot book outside opening hours', async ({
  deskPage: page,
  tenant,
}) => {
  const { facilityId, roomId } = await hourlyFacility(tenant.id);
  const date = tomorrowInTokyo();
  const ask = async (start: string, hours: string) => {
    await page.goto(`/desk/bookings/new?facility=${facilityId}`);
    await page.locator('#booking-date').fill(date);
    await page.locator('#booking-start').fill(start);
    await page.locator('#booking-hours').selectOption(hours);
    await page.getByRole('button', { name: 'Show available rooms' }).click();
  };

  // Outside the opening hours: refused with the hours in the message, nothing to book.
  await ask('19:00', '1');
  await expect(page.getByText('Outside opening hours: this facility is open 09:00–18:00.')).toBeVisible();
  await expect(page.locator('input[name="roomIds"]')).toHaveCount(0);
  await ask('17:00', '2');
  await expect(page.getByText('Outside opening hours: the booking must end by 18:00')).toBeVisible();
  await expect(page.locator('input[name="roomIds"]')).toHaveCount(0);

  await ask('10:00', '2');
  const choice = page.locator(`label[data-room-id="${roomId}"]`);
  // Money in the reader's locale (English says JP¥): the rate, its name, and 2 × the rate.
  await expect(choice).toContainText('¥3,000 per hour · Meeting room (hourly) — ');
  await expect(choice).toContainText('¥6,000 for 2 hours');
  await page.waitForLoadState('networkidle');
  await choice.locator('input').check();
  await page.getByLabel('Guest name').fill(`Board Meeting ${Date.now()}`);
  await page.getByRole('button', { name: 'Book 1 room' }).click();
  await expect(page).toHaveURL(/\/desk\/bookings\?created=/);
  await expect(page.getByTestId('booking-created')).toBeVisible();
  await page.getByTestId('booking-created').getByRole('link', { name: 'Room Meeting A' }).click();
  await expect(page).toHaveURL(/\/desk\/reservations\//);
  await expect(page.getByTestId('reservation-rate')).toHaveText('Meeting room (hourly)');
  await expect(page.getByText('Asia/Tokyo').first()).toBeVisible();
});

test('the API refuses an hourly booking outside opening hours with a 400 that says why', async ({
  tenant,
  request,
}) => {
  const { roomId } = await hourlyFacility(tenant.id);
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', 'scripts/cli.ts', 'api-key-create', '--tenant', tenant.id, '--name', 'hourly e2e'],
    { env: { ...process.env, UNLOCKOS_DATA_DIR: '.data/e2e' }, timeout: 60_000 },
  );
  const { key } = JSON.parse(stdout.trim().split('\n').at(-1)!) as { key: string };
  const date = tomorrowInTokyo();
  const post = (start: string, end: string) =>
    request.post('/api/v1/booking-groups', {
      headers: { authorization: `Bearer ${key}` },
      data: {
        guest: { name: 'API Meeting' },
        reservations: [{ roomId, startsAt: `${date}T${start}:00+09:00`, endsAt: `${date}T${end}:00+09:00` }],
      },
    });
  const late = await post('17:00', '19:00');
  expect(late.status()).toBe(400);
  expect((await late.json()).error).toMatchObject({
    code: 'invalid_request',
    reason: 'outside_opening_hours',
    roomIds: [roomId],
    opensAt: '09:00',
    closesAt: '18:00',
    timeZone: 'Asia/Tokyo',
  });
  const offHour = await post('10:30', '11:30');
  expect(offHour.status()).toBe(400);
  expect((await offHour.json()).error.reason).toBe('not_whole_hours');
  const fine = await post('10:00', '12:00');
  expect(fine.status()).toBe(201);
});
