import { expect, test } from './fixtures';
import { bookNight, checkInButton, seedKeyState } from './helpers';

// The desk sees a lock problem in words with what it can do, and is warned — and asked to confirm —
// before checking in a guest whose PIN cannot reach the door (issue 28, item 11 f). Runs in the
// "desktop" project in a tenant of its own: one room whose simulator lock is then recorded offline
// behind its gateway with the stay's code failed on it, as the status read and the worker's last
// attempt would record them (e2e/seed-key-state.ts).

const DAY = 86_400_000;

test('a lock offline behind its gateway: the key card says so with what to do, and check-in asks to confirm', async ({
  deskPage: page,
  tenant,
}) => {
  const room = tenant.rooms[0]!;
  await bookNight(page, { day: new Date(Date.now() + DAY), guestName: `Offline Guest ${Date.now()}`, roomId: room.id });
  const card = page.locator('[data-testid="key-card"][data-key-status="pre_issued"][data-key-kind="guest"]');
  // Let the worker set the code first, so nothing moves the door after the seed.
  await expect(async () => {
    await page.reload();
    await expect(card.getByTestId('door-state')).toHaveText('Set on lock', { timeout: 1_000 });
  }).toPass({ timeout: 45_000 });
  const keyId = (await card.getAttribute('data-key-id'))!;
  seedKeyState({ op: 'lock-offline', tenantId: tenant.id, keyId, deviceId: room.lockDevice });
  await page.reload();

  // The key card: what is wrong with which door, and what the desk can do (the simulator keeps no pool).
  const problem = card.getByTestId('lock-problem');
  await expect(problem.getByTestId('lock-problem-kind')).toHaveAttribute('data-problem', 'gateway_offline');
  await expect(problem.getByTestId('lock-problem-kind')).toContainText(`Gateway offline — ${room.lockDevice}`);
  await expect(problem.getByTestId('lock-problem-action')).toHaveAttribute('data-action', 'call_manager');
  await expect(problem.getByTestId('issue-backup')).toHaveCount(0);

  // The check-in: warned, and not sent until the desk confirms.
  const warning = page.getByTestId('check-in-lock-warning');
  await expect(warning).toContainText(`The new PIN may not reach the door: Gateway offline (${room.lockDevice})`);
  await checkInButton(page).click();
  await expect(page.getByTestId('check-in-confirm')).toHaveJSProperty('validity.valueMissing', true);
  await expect(page.getByTestId('checkin-result')).toHaveCount(0);

  await page.getByTestId('check-in-confirm').check();
  await checkInButton(page).click();
  await expect(page.getByTestId('checkin-result')).toHaveAttribute('class', /result-panel--success/);
});
