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
