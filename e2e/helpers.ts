import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { expect, type Locator, type Page } from '@playwright/test';
import type { BookingSiteDbInput } from './booking-site-db';
import type { SeedKeyStateInput } from './seed-key-state';

/** Signs in through the sign-in page, as a person would (other specs set the session: e2e/fixtures.ts). */
export async function signIn(page: Page, email: string, password: string, next = '/desk'): Promise<void> {
  await page.goto(`/sign-in?callbackUrl=${encodeURIComponent(next)}`);
  await page.getByLabel(/email/i).fill(email);
  await page.getByLabel(/password/i).fill(password);
  await page.getByRole('button', { name: /sign in/i }).click();
  await expect(page).toHaveURL(new RegExp(`${next.replace(/\//g, '\\/')}$`));
}

/** Where the launcher under test runs its services (written by scripts/start.ts). */
export function services(): { appUrl: string; webUrls: string[]; simulatorUrl: string; demoGuestUrl: string } {
  return JSON.parse(readFileSync('.data/e2e/services.json', 'utf8'));
}

/** Sets the lock-vendor simulator's faults (latency, errors) for the running app. */
export async function simulatorFaults(faults: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${services().simulatorUrl}/_control/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(faults),
  });
  if (!response.ok) throw new Error(`simulator answered ${response.status}`);
}

/**
 * The check-in button of a row or page: "Complete check-in" once the check-in has opened, "Check in
 * early" before (the desk offers it while the room is free) — which one depends on the time of day.
 */
export function checkInButton(scope: Page | Locator): Locator {
  // In a list the button's name also says whose check-in it is: "Complete check-in · Room 102 · Kenji Sato".
  return scope.getByRole('button', { name: /^(Complete check-in|Check in early)( · .+)?$/ }).first();
}

const iso = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Books one night from `day` through the desk's booking form, in `roomId` when given (else the first
 * free room); opens the reservation's page and returns its URL and the room booked.
 */
export async function bookNight(
  page: Page,
  input: { day: Date; guestName: string; roomId?: string },
): Promise<{ reservationUrl: string; roomId: string }> {
  await page.goto('/desk/bookings/new');
  await page.waitForLoadState('networkidle');
  await page.locator('#booking-check-in').fill(iso(input.day));
  await page.locator('#booking-check-out').fill(iso(new Date(input.day.getTime() + 86_400_000)));
  await page.getByRole('button', { name: 'Show available rooms' }).click();
  // The room list is a client component: let it hydrate before ticking, or the tick is lost.
  await page.waitForLoadState('networkidle');
  const room = input.roomId
    ? page.locator(`input[name="roomIds"][value="${input.roomId}"]`)
    : page.locator('input[name="roomIds"]:not([disabled])').first();
  await expect(room).toBeEnabled();
  await room.check();
  const roomId = (await room.getAttribute('value'))!;
  await page.getByLabel('Guest name').fill(input.guestName);
  await page.getByRole('button', { name: 'Book 1 room' }).click();
  await expect(page).toHaveURL(/\/desk\/bookings\?created=/);
  await page.getByTestId('booking-created').getByRole('link').first().click();
  await expect(page).toHaveURL(/\/desk\/reservations\//);
  await page.waitForLoadState('networkidle');
  return { reservationUrl: page.url(), roomId };
}

/** Runs the project CLI against the e2e server's database (it reads the data key from .data/e2e/secrets.json). */
export function cli(...args: string[]): unknown {
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/cli.ts', ...args], {
    env: { ...process.env, UNLOCKOS_DATA_DIR: '.data/e2e' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return JSON.parse(out.trim().split('\n').at(-1) ?? 'null');
}

/**
 * The path of the newest link the worker mailed to `email` (an invitation's, a reset's or a sign-up's), as the
 * local mail catcher caught it (`cli account-mail`), waiting for the mail to arrive.
 */
export async function mailedLink(
  email: string,
  kind: 'invitations' | 'password-reset' | 'sign-up',
  after = 0,
): Promise<string> {
  let path: string | null = null;
  await expect
    .poll(
      () => {
        const { mails } = cli('account-mail', '--email', email) as { mails: { text: string; receivedAt: string }[] };
        const fresh = mails.filter((m) => Date.parse(m.receivedAt) >= after);
        path = fresh.map((m) => new RegExp(`/${kind}/[A-Za-z0-9_-]{43}`).exec(m.text)?.[0]).find(Boolean) ?? null;
        return path;
      },
      { timeout: 30_000, message: `a ${kind} mail to ${email}` },
    )
    .not.toBeNull();
  return path!;
}

/** Gives a tenant its Calendly signing key and maps a Calendly event type to one of its rooms. */
export function addCalendlySource(input: { tenantId: string; roomId: string; signingKey: string; eventType: string }) {
  cli('secret-set', '--tenant', input.tenantId, '--provider', 'calendly', '--value', input.signingKey);
  cli(
    'booking-source-add',
    '--tenant',
    input.tenantId,
    '--provider',
    'calendly',
    '--event-type',
    input.eventType,
    '--room',
    input.roomId,
  );
}

/**
 * Puts a key into a state the simulator cannot reach from the browser (an offline code on its door, a
 * backup standing in for it) in the e2e server's database: e2e/seed-key-state.ts says what each does.
 */
export function seedKeyState(input: SeedKeyStateInput): Record<string, unknown> {
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'e2e/seed-key-state.ts', JSON.stringify(input)], {
    env: { ...process.env, UNLOCKOS_DATA_DIR: '.data/e2e' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return JSON.parse(out.trim().split('\n').at(-1) ?? 'null');
}

const run = promisify(execFile);

/**
 * Runs one of e2e/'s own scripts against the e2e server's database (`tsx e2e/<script>.ts '<json input>'`, as
 * e2e/make-tenant.ts is run) and returns the JSON object it printed last.
 */
export async function e2eScript<T>(script: string, input: unknown): Promise<T> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', script, JSON.stringify(input)], {
    env: { ...process.env, UNLOCKOS_DATA_DIR: '.data/e2e' },
    timeout: 60_000,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as T;
}

/**
 * The newest mail to a guest's `email` whose text matches `pattern`, as the local mail catcher caught it
 * (e2e/booking-site-db.ts `mail`), waiting for it to arrive; the first group of the match.
 */
export async function mailed(email: string, pattern: RegExp, after = 0): Promise<string> {
  let found: string | null = null;
  await expect
    .poll(
      async () => {
        const input: BookingSiteDbInput = { op: 'mail', email };
        const { mails } = await e2eScript<{ mails: { text: string; receivedAt: string }[] }>(
          'e2e/booking-site-db.ts',
          input,
        );
        const match = mails
          .filter((m) => Date.parse(m.receivedAt) >= after)
          .map((m) => pattern.exec(m.text))
          .find(Boolean);
        found = match ? (match[1] ?? match[0]) : null;
        return found;
      },
      { timeout: 30_000, message: `a mail to ${email} matching ${pattern}` },
    )
    .not.toBeNull();
  return found!;
}
