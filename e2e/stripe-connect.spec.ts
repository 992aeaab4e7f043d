import { expect, test } from './fixtures';

// Stripe Connect onboarding through the browser (issue 32, item 3), against the local Stripe stand-in that
// `npm start` runs when no STRIPE_SECRET_KEY is given: the manager connects, leaves half-way, continues, finishes.

test('a manager connects the tenant’s Stripe account through onboarding, and can continue an unfinished one', async ({
  managerPage: page,
}) => {
  await page.goto('/manage/payments');
  await expect(page.getByTestId('stripe-state-words')).toHaveText('Not connected');
  await page.getByTestId('stripe-connect').click();

  // Stripe's onboarding (the stand-in's page), left before finishing.
  await expect(page.getByTestId('standin-onboarding-complete')).toBeVisible();
  await page.goto('/manage/payments');
  await expect(page.getByTestId('stripe-state-words')).toContainText('Onboarding unfinished');
  const account = await page.getByTestId('stripe-account-id').textContent();
  expect(account).toMatch(/^acct_[A-Za-z0-9]+$/);

  await page.getByTestId('stripe-connect').filter({ hasText: 'Continue onboarding' }).click();
  await page.getByTestId('standin-onboarding-complete').click();
  await expect(page).toHaveURL(/\/manage\/payments\/return$/);
  await expect(page.getByTestId('stripe-state-words')).toContainText('Connected');
  await expect(page.getByTestId('stripe-account-id')).toHaveText(account!);
  await expect(page.getByTestId('stripe-connect')).toHaveCount(0);

  await page.goto('/manage/payments');
  await expect(page.getByTestId('stripe-state')).toHaveText('Connected');
  await page.goto('/manage/audit');
  // Once, by whichever saw it first: the return page or Stripe's account.updated.
  await expect(page.getByRole('row').filter({ hasText: 'payments.stripe_connected' })).toHaveCount(1);
  await expect(page.getByRole('row').filter({ hasText: 'payments.stripe_connected' })).toContainText(
    'Stripe account connected',
  );
});
