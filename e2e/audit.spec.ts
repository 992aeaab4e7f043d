import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { bookNight, checkInButton } from './helpers';

// Runs in the "desktop" project, in a tenant of its own: its audit log holds this test's events only.

/** Books one available room for tonight through the desk's group booking form; returns the guest's name. */
async function bookFreshReservation(page: Page): Promise<string> {
  const guestName = `Audit Guest ${Date.now()}`;
  await page.goto('/desk/bookings/new');
  await page.getByRole('button', { name: 'Show available rooms' }).click();
  // The room list is a client component: let it hydrate before ticking, or the tick is lost.
  await page.waitForLoadState('networkidle');
  const freeRoom = page.locator('input[name="roomIds"]:not([disabled])').first();
  await expect(freeRoom).toBeVisible();
  await freeRoom.check();
  await page.getByLabel('Guest name').fill(guestName);
  await page.getByRole('button', { name: 'Book 1 room' }).click();
  await expect(page).toHaveURL(/\/desk\/bookings\?created=/);
  return guestName;
}

/** Clicks "Load more" until the list says every matching event is shown; returns the rows. */
async function loadAllRows(page: Page) {
  const end = page.getByTestId('audit-end');
  for (let i = 0; i < 50 && !(await end.isVisible()); i++) {
    const more = page.getByTestId('audit-load-more');
    if (await more.isVisible()) await more.click();
    await page.waitForTimeout(200);
  }
  await expect(end).toBeVisible();
  return page.getByTestId('audit-row');
}

test('a check-in revokes the pre-issued key; the manager finds it in the audit log and exports exactly the filtered rows', async ({
  deskPage: page,
  managerPage: manager,
}) => {
  // The front desk books a guest for tonight (a key is pre-issued) and checks them in.
  const guestName = await bookFreshReservation(page);
  await page.goto('/desk');
  const row = page.getByRole('row').filter({ hasText: guestName });
  await checkInButton(row).click();
  await expect(page.getByTestId('checkin-result')).toContainText('Checked in. New PIN:');

  // The manager opens the audit log and filters to revoked keys.
  await manager.goto('/manage');
  await manager.getByTestId('manage-nav').getByRole('link', { name: 'Audit log' }).click();
  await expect(manager).toHaveURL(/\/manage\/audit$/);
  await expect(manager.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
  await expect(manager.getByTestId('audit-row').first()).toBeVisible();

  await manager.getByLabel('Action', { exact: true }).selectOption('key.revoked');
  await expect(manager).toHaveURL(/[?&]action=key\.revoked(&|$)/);

  const superseded = manager
    .getByTestId('audit-row')
    .filter({ has: manager.getByTestId('audit-reason').getByText('superseded_by_checkin', { exact: true }) });
  await expect(superseded.first()).toBeVisible();
  await expect(superseded.first()).toContainText('Replaced by the check-in key');
  await expect(superseded.first().getByTestId('audit-action')).toHaveText('key.revoked');

  // The filter survives a reload: the server reads it from the URL.
  await manager.reload();
  await expect(manager.getByLabel('Action', { exact: true })).toHaveValue('key.revoked');
  await expect(superseded.first()).toBeVisible();

  // The CSV holds exactly the rows shown (compared again until the list has settled).
  await expect(async () => {
    await manager.reload();
    const rows = await loadAllRows(manager);
    const shown = await rows.count();
    expect(shown).toBeGreaterThan(0);
    await expect(rows.and(manager.locator('[data-action="key.revoked"]'))).toHaveCount(shown);

    const [download] = await Promise.all([
      manager.waitForEvent('download'),
      manager.getByTestId('audit-export').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^audit-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile(await download.path(), 'utf8');
    const lines = csv.split('\n').filter((line) => line !== '');
    expect(lines[0]).toBe(
      'occurred_at,action,actor_type,actor_id,actor_label,subject_type,subject_id,room_id,reason,metadata',
    );
    const body = lines.slice(1);
    expect(body).toHaveLength(shown);
    for (const line of body) expect(line.split(',')[1]).toBe('"key.revoked"');
    expect(body.some((line) => line.includes('"superseded_by_checkin"'))).toBe(true);
  }).toPass({ timeout: 45_000 });
});

test('the audit log says so when nothing matches, and keeps every filter in the URL', async ({ managerPage: page }) => {
  // Something to list once the filters are cleared: a booking pre-issues a key, which is audited.
  await bookNight(page, { day: new Date(), guestName: `Audited Guest ${Date.now()}` });
  await page.goto('/manage/audit?action=user.sign_in_failed&actor=nobody-by-this-name&from=2000-01-01&to=2000-01-02');
  await expect(page.getByTestId('audit-empty')).toHaveText('No audit events match these filters.');
  await expect(page.getByLabel('Who')).toHaveValue('nobody-by-this-name');
  await expect(page.getByLabel('From (date)')).toHaveValue('2000-01-01');

  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).toHaveURL(/\/manage\/audit$/);
  await expect(page.getByTestId('audit-row').first()).toBeVisible();
});

test('the front desk may not read the audit log', async ({ deskPage: page }) => {
  await page.goto('/manage/audit');
  await expect(page).toHaveURL(/\/forbidden$/);
  const response = await page.request.get('/manage/audit/events');
  expect(response.status()).toBe(403);
  expect((await response.json()).error.code).toBe('forbidden');
});
