import { expect, signInAs, test } from './fixtures';
import { bookNight } from './helpers';

// Runs in the "desktop" project, in a tenant of its own: make-tenant gives each room a lock device
// of the simulator (the install's default provider), which is that room's own door.

const DAY = 86_400_000;

test('a manager sees a lock with its door and the guest’s code — never its PIN — and re-syncs it', async ({
  managerPage: page,
  tenant,
}) => {
  const room = tenant.rooms[0]!;
  const guestName = `Lock Guest ${Date.now()}`;
  await bookNight(page, { day: new Date(Date.now() + DAY), guestName, roomId: room.id });
  // The PIN the desk can reveal (audited) — the Locks page must not show it anywhere.
  await page.getByRole('button', { name: 'Reveal PIN' }).first().click();
  const pin = (await page.getByTestId('revealed-pin').textContent())!.trim();
  expect(pin).toMatch(/^\d{4,}$/);

  await page.goto('/manage/locks');
  await expect(page.getByRole('heading', { level: 1, name: 'Locks' })).toBeVisible();
  await expect(page.getByText('Times are in UTC, the facility’s time zone.')).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Manage sections' }).getByRole('link', { name: 'Locks' }),
  ).toHaveAttribute('aria-current', 'page');

  const card = page.locator(`[data-testid="lock-card"][data-device-id="${room.lockDevice}"]`);
  await expect(card.getByRole('heading', { level: 2, name: room.lockDevice })).toBeVisible();
  await expect(card.getByTestId('lock-door')).toHaveText(`Room ${room.label} · own door`);
  const code = card.getByTestId('lock-code').filter({ hasText: guestName });
  await expect(code.getByRole('link', { name: guestName })).toHaveAttribute(
    'href',
    /^\/desk\/reservations\/[0-9a-f-]{36}$/,
  );
  await expect(code).toContainText(`Room ${room.label}`);
  await expect(code.getByTestId('lock-code-key-status')).toHaveText('Pre-issued');
  // A worker sends the code to the simulator: the door reads "Set on lock" once it has.
  await expect(async () => {
    await page.reload();
    await expect(code.getByTestId('lock-code-state')).toHaveText('Set on lock', { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  expect(await page.locator('main').innerText()).not.toContain(pin);

  await card.getByRole('button', { name: `Re-sync ${room.lockDevice}` }).click();
  const result = card.getByTestId('lock-resync-result');
  await expect(result).toHaveText(/^Re-sync done: /);
  await expect(result).toBeFocused();
  // The provider's side now has a time of its last check.
  await expect(card.getByTestId('lock-reconciled-at')).toContainText('At the last check');
  await expect(card.getByTestId('lock-theirs-unchecked')).toHaveCount(0);
  expect(await page.locator('main').innerText()).not.toContain(pin);
});

test.describe('a tenant without locks', () => {
  test.use({ rooms: 0 });

  test('is told to import them, and the import brings in none of the install’s other tenants’ locks', async ({
    managerPage: page,
  }) => {
    await page.goto('/manage/locks');
    await expect(page.getByTestId('locks-empty')).toContainText('No locks yet — import them from your lock provider.');
    await page.getByRole('button', { name: 'Import locks from provider' }).click();
    const result = page.getByTestId('locks-import-result');
    // The install's simulator lists every tenant's doors; this tenant was assigned none of them.
    await expect(result).toHaveText('No new locks; the provider lists no locks.');
    await expect(result).toBeFocused();
    await expect(page.getByTestId('lock-card')).toHaveCount(0);
  });

  test('connects its own TTLock account: a private address is refused in plain words, no secret is shown back', async ({
    managerPage: page,
  }) => {
    await page.goto('/manage/locks');
    const panel = page.getByTestId('lock-provider');
    await expect(panel.getByTestId('lock-provider-current')).toHaveText('Now: the install’s locks');
    await panel.getByLabel('My own TTLock account').check();
    await panel.getByLabel('TTLock client id').fill('my-app');
    await panel.getByLabel('TTLock client secret').fill('client-secret-typed');
    await panel.getByLabel('TTLock account (username)').fill('front-office');
    await panel.getByLabel('TTLock account password').fill('password-typed');
    await panel.getByLabel('TTLock API address (optional)').fill('https://169.254.169.254');
    await panel.getByRole('button', { name: 'Save provider' }).click();
    const result = panel.getByTestId('lock-provider-result');
    await expect(result).toHaveText(
      'The API address must be a public https address (not a private, local or link-local one).',
    );
    // The non-secret fields come back; the secrets do not, anywhere on the page.
    await expect(panel.getByLabel('TTLock client id')).toHaveValue('my-app');
    await expect(panel.getByLabel('TTLock client secret')).toHaveValue('');
    await expect(panel.getByLabel('TTLock account password')).toHaveValue('');
    const html = await page.content();
    expect(html).not.toContain('client-secret-typed');
    expect(html).not.toContain('password-typed');

    await panel.getByRole('radio', { name: /^The install’s locks/ }).check();
    await panel.getByRole('button', { name: 'Save provider' }).click();
    await expect(result).toHaveText('Saved: the install’s locks. Import your locks below.');
  });
});

test('the front desk cannot open the Locks page', async ({ deskPage: page }) => {
  await page.goto('/manage/locks');
  await expect(page).toHaveURL(/\/forbidden$/);
});

test('the Locks page speaks Japanese', async ({ browser, tenant, baseURL }) => {
  const context = await browser.newContext({ locale: 'ja-JP', extraHTTPHeaders: { 'accept-language': 'ja' } });
  await signInAs(context, tenant.manager, baseURL!);
  const page = await context.newPage();
  await page.goto('/manage/locks');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
  await expect(page.getByRole('heading', { level: 1, name: 'ロック' })).toBeVisible();
  const card = page.locator(`[data-testid="lock-card"][data-device-id="${tenant.rooms[0]!.lockDevice}"]`);
  await expect(card.getByTestId('lock-door')).toHaveText(`客室 ${tenant.rooms[0]!.label}・客室の扉`);
  await expect(card.getByRole('button', { name: `${tenant.rooms[0]!.lockDevice} を再同期` })).toBeVisible();
  await context.close();
});
