'use server';

import { redirect } from 'next/navigation';
import { z } from 'zod';
import { appBaseUrl } from '@/lib/auth/guest-links';
import { AppError } from '@/lib/errors';
import { stripeClient } from '@/lib/payments/stripe-client';
import { startStripeOnboarding } from '@/lib/payments/stripe-connect';
import { staffAction } from '@/app/_server/action';

/**
 * "Connect Stripe" / "Continue onboarding": the tenant's one Connect account (made on the first click, reused
 * after), a fresh onboarding link for it, and the browser sent there. Two clicks at once make one account.
 */
export const connectStripeAction = staffAction(
  { name: 'connectStripe', permission: 'payments.manage', input: z.object({}) },
  async ({ tenantId }) => {
    const stripe = stripeClient();
    if (!stripe) throw new AppError('not_available', 'Online payments are not set up on this install.');
    const { url } = await startStripeOnboarding({ tenantId, stripe, appUrl: appBaseUrl() });
    redirect(url);
  },
);
