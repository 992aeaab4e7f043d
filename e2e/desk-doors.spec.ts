import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { bookNight, checkInButton, seedKeyState } from './helpers';

// Runs in the "desktop" project, in a tenant of its own: one room with one simulator lock, whose
// name is its device id. States the simulator cannot produce (an offline code, a backup code) are
// seeded in the database (e2e/seed-key-state.ts); everything the desk does goes through the page.

const DAY = 86_400_000;
const tomorrow = () => new Date(Date.now() + DAY);

/** The reservation's pre-issued key card. */
function preIssuedCard(page: Page): Locator {
  return page.locator('[data-testid="key-card"][data-key-status="pre_issued"][data-key-kind="guest"]');
}

/** Reloads until the card's door on `lockName` says the code is set (the worker programs it through the simulator). */
async function waitForDoorSet(page: Page, card: Locator, lockName: string): Promise<Locator> {
  const door = card.getByTestId('key-door').filter({ hasText: lockName });
  await expect(async () => {
    await page.reload();
    await expect(door.getByTestId('door-state')).toHaveText('Set on lock', { timeout: 1_000 });
  }).toPass({ timeout: 45_000 });
  return door;
}

/** The value of one of a key card's facts ("Issued", "Valid until"), as shown. */
async function fact(card: Locator, label: string): Promise<string> {
  return (await card.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]').innerText()).trim();
}

/** A card's text with the lock's name taken out (it may hold digits), to check that no PIN is in it. */
async function textWithout(card: Locator, lockName: string): Promise<string> {
  return (await card.innerText()).replaceAll(lockName, '');
}

test('a stay’s key lists its door by lock name, set on the lock, and the timeline says so', async ({
  deskPage: page,
  tenant,
}) => {
  const lockName = tenant.rooms[0]!.lockDevice;
  await bookNight(page, { day: tomorrow(), guestName: `Door Guest ${Date.now()}`, roomId: tenant.rooms[0]!.id });
  const card = preIssuedCard(page);
  const door = await waitForDoorSet(page, card, lockName);

  await expect(card.getByRole('heading', { name: 'Doors' })).toBeVisible();
  await expect(card.getByTestId('key-door')).toHaveCount(1);
  await expect(door).toContainText(lockName);
  await expect(door.getByTestId('door-offline')).toHaveCount(0);
  // A guest's own key carries no kind badge; its summary agrees with the door.
  await expect(card.getByTestId('key-kind')).toHaveCount(0);
  await expect(card.getByTestId('key-sync')).toHaveText('Active on lock');
  await expect(page.getByTestId('timeline-event').filter({ hasText: 'Code set on a door' })).toContainText(
    `Code set on a door — ${lockName}`,
  );
});

test('an offline code: the revoke form warns first, and once revoked the card says it still opens the lock until its end — no PIN', async ({
  deskPage: page,
  tenant,
}) => {
  const lockName = tenant.rooms[0]!.lockDevice;
  const { reservationUrl } = await bookNight(page, {
    day: tomorrow(),
    guestName: `Offline Guest ${Date.now()}`,
    roomId: tenant.rooms[0]!.id,
  });
  const card = preIssuedCard(page);
  await waitForDoorSet(page, card, lockName);
  const keyId = (await card.getAttribute('data-key-id'))!;
  seedKeyState({ op: 'offline-door', tenantId: tenant.id, keyId });

  await page.goto(reservationUrl);
  const keyCard = page.locator(`[data-testid="key-card"][data-key-id="${keyId}"]`);
  const end = await fact(keyCard, 'Valid until');
  await expect(keyCard.getByTestId('door-offline')).toHaveText('Offline code');
  await expect(keyCard.getByTestId('revoke-offline-warning')).toHaveText(
    `This code was computed offline by the lock: revoking it here does not stop it opening the door until ${end}.`,
  );

  await keyCard.getByLabel('Reason').fill('Guest left early');
  await keyCard.getByRole('button', { name: 'Revoke key' }).click();
  await expect(keyCard).toHaveAttribute('data-key-status', 'revoked');
  await expect(keyCard.getByTestId('revoke-done')).toHaveText(
    `Key revoked here. Its offline code still opens the door until ${end}.`,
  );
  const door = keyCard.getByTestId('key-door');
  await expect(door.getByTestId('door-state')).toHaveText('Still valid on the lock');
  await expect(door.getByTestId('door-still-valid')).toHaveText(
    `Revoked here — this offline code still opens ${lockName} until ${end}`,
  );
  // Nothing on the card pretends the code left the lock.
  await expect(keyCard.getByTestId('key-lock-summary')).toHaveText(
    'Still valid on the lock until its end (offline code)',
  );
  await expect(keyCard).not.toContainText('Removed from lock');

  // After a reload too (the server's rendering, not the form's memory), and never a PIN.
  await page.reload();
  await expect(keyCard.getByTestId('door-still-valid')).toContainText(`still opens ${lockName} until ${end}`);
  await expect(keyCard.getByText('Not shown: this key has ended')).toBeVisible();
  await expect(page.getByTestId('revealed-pin')).toHaveCount(0);
  expect(await textWithout(keyCard, lockName)).not.toMatch(/\d{6}/);
  await expect(
    page.getByTestId('timeline-event').filter({ hasText: 'Offline code: still valid on the lock until its end' }),
  ).toContainText(lockName);
});

test('a check-in that supersedes an offline pre-issued code says it still opens the lock', async ({
  deskPage: page,
  tenant,
}) => {
  const lockName = tenant.rooms[0]!.lockDevice;
  const { reservationUrl } = await bookNight(page, {
    day: tomorrow(),
    guestName: `Offline Arrival ${Date.now()}`,
    roomId: tenant.rooms[0]!.id,
  });
  const card = preIssuedCard(page);
  await waitForDoorSet(page, card, lockName);
  const keyId = (await card.getAttribute('data-key-id'))!;
  const issued = await fact(card, 'Issued');
  const end = await fact(card, 'Valid until');
  seedKeyState({ op: 'offline-door', tenantId: tenant.id, keyId });

  await page.goto(reservationUrl);
  await checkInButton(page).click();
  const result = page.getByTestId('checkin-result');
  await expect(result).toContainText('Checked in. New PIN:');
  await expect(result.getByTestId('checkin-offline-code')).toHaveText(
    `The pre-issued code issued ${issued} is an offline code and still opens ${lockName} until ${end}.`,
  );
  const superseded = page.locator(`[data-testid="key-card"][data-key-id="${keyId}"]`);
  await expect(superseded.getByTestId('key-revoked-reason')).toHaveText('Replaced by the check-in key');
  await expect(superseded.getByTestId('door-still-valid')).toContainText(`still opens ${lockName} until ${end}`);
});

test('the arrivals list’s check-in says so too when the superseded code was an offline one', async ({
  deskPage: page,
  tenant,
}) => {
  const lockName = tenant.rooms[0]!.lockDevice;
  const guestName = `Offline Tonight ${Date.now()}`;
  await bookNight(page, { day: new Date(), guestName, roomId: tenant.rooms[0]!.id });
  const card = preIssuedCard(page);
  await waitForDoorSet(page, card, lockName);
  seedKeyState({ op: 'offline-door', tenantId: tenant.id, keyId: (await card.getAttribute('data-key-id'))! });

  await page.goto('/desk');
  await checkInButton(page.getByRole('row').filter({ hasText: guestName })).click();
  const result = page.getByTestId('checkin-result');
  await expect(result).toContainText('Checked in. New PIN:');
  await expect(result.getByTestId('checkin-offline-code')).toContainText(
    `is an offline code and still opens ${lockName} until`,
  );
});

test('a backup code says what it stands in for and why; the cards stack, and no PIN is shown', async ({
  deskPage: page,
  tenant,
}) => {
  const lockName = tenant.rooms[0]!.lockDevice;
  await bookNight(page, { day: tomorrow(), guestName: `Backup Guest ${Date.now()}`, roomId: tenant.rooms[0]!.id });
  const original = preIssuedCard(page);
  await waitForDoorSet(page, original, lockName);
  const keyId = (await original.getAttribute('data-key-id'))!;
  const issued = await fact(original, 'Issued');
  const { backupKeyId } = seedKeyState({ op: 'backup', tenantId: tenant.id, keyId, reason: 'code_setting' });

  // On a phone's screen from here: the cards stack.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  const backup = page.locator(`[data-testid="key-card"][data-key-id="${backupKeyId as string}"]`);
  await expect(backup).toHaveAttribute('data-key-kind', 'backup');
  await expect(backup.getByTestId('key-kind')).toHaveText('Backup code');
  const line = backup.getByTestId('key-backup-for');
  await expect(line).toContainText(`Stands in for the guest key issued ${issued}.`);
  await expect(line).toContainText('The room’s code had still not reached the lock at');
  await expect(line.getByRole('link', { name: `guest key issued ${issued}` })).toHaveAttribute('href', `#key-${keyId}`);
  await expect(backup.getByTestId('key-door').getByTestId('door-state')).toHaveText('Set on lock');
  await expect(backup.getByTestId('key-door')).toContainText(lockName);
  await expect(original.getByTestId('key-kind')).toHaveCount(0);

  const timeline = page.getByTestId('timeline-event').filter({ hasText: 'Backup code issued' });
  await expect(timeline).toContainText(`Backup code issued — ${lockName}`);
  await expect(timeline).toContainText('The room’s code had still not reached the lock at');

  // The PIN stays behind the reveal; the cards stack and nothing overflows the screen.
  await expect(page.getByTestId('revealed-pin')).toHaveCount(0);
  expect(await textWithout(backup, lockName)).not.toMatch(/\d{6}/);
  const [first, second] = [await original.boundingBox(), await backup.boundingBox()];
  expect(first && second).toBeTruthy();
  expect(Math.abs(first!.x - second!.x)).toBeLessThan(1);
  expect(second!.y >= first!.y + first!.height || first!.y >= second!.y + second!.height).toBe(true);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
