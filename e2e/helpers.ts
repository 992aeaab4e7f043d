import { readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';

export const DEMO_PASSWORD = 'unlockos-demo';
export const MANAGER = 'manager@sakura.example';
export const FRONT_DESK = 'desk@sakura.example';

/** Signs in through the sign-in page, as a person would. */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD, next = '/desk'): Promise<void> {
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
