import { NextResponse } from 'next/server';
import { appBaseUrl } from '@/lib/auth/guest-links';
import { logger } from '@/lib/log/logger';
import { stripeClient } from '@/lib/payments/stripe-client';
import { startStripeOnboarding } from '@/lib/payments/stripe-connect';
import { requireStaff } from '@/app/_server/staff';

/**
 * Stripe's refresh_url: the onboarding link was used or ran out, so a fresh one for the tenant's pending
 * account, and the browser sent to it. Connected already, or payments not set up → the payments page.
 */
export async function GET() {
  const staff = await requireStaff('payments.manage', '/manage/payments');
  const stripe = stripeClient();
  const back = NextResponse.redirect(`${appBaseUrl()}/manage/payments`, 303);
  if (!stripe) return back;
  try {
    const { url } = await startStripeOnboarding({ tenantId: staff.current.tenantId, stripe, appUrl: appBaseUrl() });
    return NextResponse.redirect(url, 303);
  } catch (error) {
    // The payments page says where the account stands and offers the link again.
    logger.warn({ err: error, tenantId: staff.current.tenantId }, 'stripe onboarding link not made');
    return back;
  }
}
