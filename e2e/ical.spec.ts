import { parseFeed } from '../lib/ical/parse-feed';
import { expect, test } from './fixtures';
import { bookNight } from './helpers';

const inDays = (n: number) => new Date(Date.now() + n * 86_400_000);

// A manager connects a room to Airbnb both ways: imports the listing's calendar (here a loopback address, which
// the app refuses in words, as it refuses any private one) and hands Airbnb the room's own busy periods, which
// show a desk booking as "Reserved" and nothing of the guest; a new link ends the old one.
test('a manager imports a channel calendar and exports the room’s busy periods', async ({
  managerPage: page,
  deskPage,
  tenant,
}) => {
  const room = tenant.rooms[0]!;
  const guestName = `Export Guest ${Date.now()}`;
  await bookNight(deskPage, { day: inDays(3), guestName, roomId: room.id });

  await page.goto(`/manage/rooms/${room.id}`);
  await expect(page.getByTestId('ical-feeds-empty')).toBeVisible();
  // Not a URL: refused next to the field, nothing added.
  await page.getByTestId('ical-feed-url').fill('airbnb calendar');
  await page.getByTestId('ical-feed-add').click();
  await expect(page.getByTestId('ical-feed-url')).toHaveAccessibleDescription(/http or https address/);
  await expect(page.getByTestId('ical-feeds-empty')).toBeVisible();

  await page.getByTestId('ical-feed-channel').selectOption('airbnb');
  await page.getByTestId('ical-feed-url').fill('http://127.0.0.1:9/calendar/ical/123.ics?s=secret');
  await page.getByTestId('ical-feed-add').click();
  await expect(page.getByTestId('ical-feed-result')).toContainText('Calendar added.');
  const feed = page.getByTestId('ical-feed');
  await expect(feed).toContainText('Airbnb');
  await expect(feed).toContainText('127.0.0.1:9');
  await expect(feed).not.toContainText('secret');
  // The worker fetches it at once and says why it could not.
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('ical-feed-status')).toContainText('the address is private or loopback', {
      timeout: 1_000,
    });
  }).toPass({ timeout: 30_000 });

  // The export: the desk's stay as a Reserved event, no guest name in it.
  const url = await page.getByTestId('ical-export-url').inputValue();
  expect(url).toMatch(/\/ical\/[A-Za-z0-9_-]{32,}\.ics$/);
  const exported = await page.request.get(url);
  expect(exported.status()).toBe(200);
  expect(exported.headers()['content-type']).toContain('text/calendar');
  const text = await exported.text();
  expect(text).not.toContain(guestName);
  const parsed = parseFeed(text, { timeZone: 'UTC', checkInTime: '15:00', checkOutTime: '10:00' });
  expect(parsed.ok && parsed.events.map((e) => e.summary)).toEqual(['Reserved']);

  await page.getByTestId('ical-export-rotate').click();
  await expect(page.getByTestId('ical-export-rotated')).toContainText('New link made.');
  await expect(page.getByTestId('ical-export-url')).not.toHaveValue(url);
  expect((await page.request.get(url)).status()).toBe(404);
  const fresh = await page.getByTestId('ical-export-url').inputValue();
  expect((await page.request.get(fresh)).status()).toBe(200);
});
