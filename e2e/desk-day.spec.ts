import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test } from './fixtures';
import type { DeskDayInput } from './desk-day-data';

// Runs in the "desktop" project, in a tenant of its own (UTC) with three rooms: 101 arrives, 102 is
// in house, 103 leaves today.

const run = promisify(execFile);

async function arrange<T>(input: DeskDayInput): Promise<T> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'e2e/desk-day-data.ts', JSON.stringify(input)], {
    env: { ...process.env, UNLOCKOS_DATA_DIR: '.data/e2e' },
    timeout: 60_000,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as T;
}

test.use({ rooms: 3 });

type Stays = { arrival: string; inHouse: string; departure: string };

async function arrangeDay(tenant: { id: string; rooms: { id: string }[] }) {
  const tag = Date.now().toString(36);
  const names: [string, string, string] = [`Kenji Sato ${tag}`, `Mia Stay ${tag}`, `Leo Leaves ${tag}`];
  const stays = await arrange<Stays>({
    op: 'stays',
    tenantId: tenant.id,
    roomIds: tenant.rooms.map((r) => r.id),
    timeZone: 'UTC',
    names,
  });
  return { tag, names, stays };
}

test('the day: arrivals, in house and departures; a named check-in moves the guest in house and its key activates without a reload', async ({
  deskPage: page,
  tenant,
}) => {
  const { names, stays } = await arrangeDay(tenant);
  const [arriving, staying, leaving] = names;
  await page.goto('/desk');
  const arrivals = page.getByTestId('day-arrivals');
  const inHouse = page.getByTestId('day-in-house');
  const departures = page.getByTestId('day-departures');
  await expect(arrivals).toContainText(arriving);
  await expect(arrivals).not.toContainText(staying);
  await expect(inHouse).toContainText(staying);
  await expect(inHouse).toContainText(leaving);
  await expect(departures).toContainText(leaving);
  await expect(departures).not.toContainText(staying);

  // The button says whose check-in it is; the result takes the focus.
  await page.waitForLoadState('networkidle');
  await page.getByRole('button', { name: `Complete check-in · Room 101 · ${arriving}` }).click();
  await expect(page.getByTestId('checkin-result')).toContainText('Checked in');
  await expect(page.getByTestId('checkin-result')).toBeFocused();
  const row = inHouse.locator(`tr[data-reservation-id="${stays.arrival}"]`);
  await expect(row).toBeVisible();
  // The lock confirms in the background: the open page follows, never stuck on "Activating…".
  await expect(row).toContainText('Active on lock', { timeout: 30_000 });
  await expect(row).not.toContainText('Activating');
});

test('the grid: each stay a bar linking to its reservation, a free day books that room', async ({
  deskPage: page,
  tenant,
}) => {
  const { names, stays } = await arrangeDay(tenant);
  await page.goto('/desk/grid');
  const grid = page.getByTestId('room-grid');
  const bar = grid.getByRole('link', { name: new RegExp(`^Room 101 · ${names[0]} · Confirmed`) });
  await expect(bar).toBeVisible();
  await bar.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/desk/reservations/${stays.arrival}$`));

  await page.goto('/desk/grid');
  // Room 103 is busy until the end of today: the day after tomorrow is free.
  const free = page.locator(`tr[data-room-id="${tenant.rooms[2]!.id}"]`).getByTestId('grid-free').nth(2);
  await expect(free).toHaveAccessibleName(/^Book Room 103 from /);
  await free.click();
  await expect(page).toHaveURL(/\/desk\/bookings\/new\?/);
  await expect(page.locator(`input[name="roomIds"][value="${tenant.rooms[2]!.id}"]`)).toBeChecked();

  // Each room's staff codes are one link away from its row.
  await page.goto('/desk/grid');
  await page.getByRole('link', { name: 'Staff codes · Room 103', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/desk/rooms/${tenant.rooms[2]!.id}/staff-codes$`));
});

test('search finds a guest by part of the name, the room or the reservation id', async ({ deskPage: page, tenant }) => {
  const { tag, names, stays } = await arrangeDay(tenant);
  await page.goto('/desk/search');
  await page.getByLabel('Guest name, room or reference').fill(`stay ${tag}`);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByTestId('search-summary')).toHaveText(/^1 reservation matches/);
  // The focus moves to the result: the focused element holds the summary.
  await expect(page.locator(':focus')).toContainText('1 reservation matches');
  await expect(page.getByTestId('search-results')).toContainText(names[1]);
  await page.goto(`/desk/search?q=${stays.departure.slice(0, 8)}`);
  await expect(page.getByTestId('search-results')).toContainText(names[2]);
  await page.goto(`/desk/search?q=${encodeURIComponent('%')}`);
  await expect(page.getByTestId('search-summary')).toHaveText(/^No reservations match/);
});

test('on a phone the day shows a card per stay, not a wide table', async ({ deskPage: page, tenant }) => {
  const { names } = await arrangeDay(tenant);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/desk');
  const card = page.getByTestId('day-arrivals').getByTestId('stay-row').first();
  await expect(card).toContainText(names[0]);
  await expect(card).toHaveCSS('display', 'grid');
  await expect(page.getByTestId('day-arrivals').locator('thead')).toHaveCSS('position', 'absolute');
  // Nothing scrolls sideways: the card fits the screen.
  const region = page.getByTestId('day-arrivals').getByRole('region');
  expect(await region.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await expect(card.getByRole('button', { name: `Complete check-in · Room 101 · ${names[0]}` })).toBeVisible();
});
