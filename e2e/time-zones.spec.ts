import { expect, test } from './fixtures';

// Every staff page shows times in the facility's zone and says so (issue 13). The facility here is
// in Tokyo and the browser in New York, so neither UTC nor the browser's zone can pass for it.
test.use({ facilityZone: 'Asia/Tokyo', timezoneId: 'America/New_York' });

const ZONE_LINE = 'Times are in Asia/Tokyo, the facility’s time zone.';

/** The instant as the pages write it in Tokyo ("30 Nov 2026, 15:00"), for this minute and the next. */
function tokyoStamps(at: Date): string[] {
  const format = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Asia/Tokyo' });
  return [format.format(at), format.format(new Date(at.getTime() + 60_000))];
}

test('manager pages say their times are the facility’s and show them so', async ({ managerPage: page }) => {
  for (const path of [
    '/manage',
    '/manage/api-keys',
    '/manage/secrets',
    '/manage/audit',
    '/manage/webhooks',
    '/manage/incidents',
  ]) {
    await page.goto(path);
    await expect(page.getByText(ZONE_LINE), path).toBeVisible();
  }

  // A key made now shows its creation time in Tokyo, not in UTC or New York.
  const before = new Date();
  await page.goto('/manage/api-keys');
  await page.getByLabel('Name', { exact: true }).fill('Zone check');
  await page.getByRole('button', { name: 'Create API key' }).click();
  await page.getByRole('button', { name: 'I have stored the key' }).click();
  const row = page.getByTestId('api-key-row').filter({ hasText: 'Zone check' });
  const created = (await row.locator('td').nth(1).innerText()).trim();
  expect(tokyoStamps(before)).toContain(created);
});

test('desk pages say their times are the facility’s', async ({ deskPage: page }) => {
  for (const path of ['/desk', '/desk/bookings', '/desk/bookings/new']) {
    await page.goto(path);
    await expect(page.getByText(ZONE_LINE), path).toBeVisible();
  }
});
