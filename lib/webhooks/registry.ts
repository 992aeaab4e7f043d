import type { WebhookProvider } from '../db/generated/enums';
import type { WebhookHandler } from './types';
import { handleAcuityAppointment } from './acuity/handlers';
import { handleBookingCancelled, handleBookingCreated, handleBookingRescheduled } from './cal/handlers';
import { handleInviteeCanceled, handleInviteeCreated } from './calendly/handlers';
import { SEAM_HANDLERS } from './seam/handlers';
import { handleAccountUpdated } from './stripe/account-updated';
import { handleChargeRefunded } from './stripe/charge-refunded';
import { handleCheckoutSessionCompleted, handleCheckoutSessionExpired } from './stripe/checkout-session';
import { handleCustomerSubscription } from './stripe/customer-subscription';
import { handleInvoicePaymentFailed } from './stripe/invoice-payment-failed';
import { handlePaymentIntentPaymentFailed } from './stripe/payment-intent-payment-failed';
import { handlePaymentIntentSucceeded } from './stripe/payment-intent-succeeded';

/** One handler per provider and event type; anything else is stored and ignored. */
const HANDLERS: Partial<Record<WebhookProvider, Record<string, WebhookHandler>>> = {
  stripe: {
    'checkout.session.completed': handleCheckoutSessionCompleted,
    'checkout.session.expired': handleCheckoutSessionExpired,
    'payment_intent.succeeded': handlePaymentIntentSucceeded,
    'payment_intent.payment_failed': handlePaymentIntentPaymentFailed,
    'charge.refunded': handleChargeRefunded,
    'customer.subscription.created': handleCustomerSubscription,
    'customer.subscription.updated': handleCustomerSubscription,
    'customer.subscription.deleted': handleCustomerSubscription,
    'invoice.payment_failed': handleInvoicePaymentFailed,
    'account.updated': handleAccountUpdated,
  },
  calendly: {
    'invitee.created': handleInviteeCreated,
    'invitee.canceled': handleInviteeCanceled,
  },
  cal: {
    BOOKING_CREATED: handleBookingCreated,
    BOOKING_CANCELLED: handleBookingCancelled,
    BOOKING_RESCHEDULED: handleBookingRescheduled,
  },
  // Each action reads the appointment's current state from Acuity's API and converges on it.
  acuity: {
    'appointment.scheduled': handleAcuityAppointment,
    'appointment.rescheduled': handleAcuityAppointment,
    'appointment.canceled': handleAcuityAppointment,
  },
  // access_code.* (set, removed, failed to set, delayed) and device.* (connected, disconnected, low battery, tampered).
  seam: SEAM_HANDLERS,
};

export function handlerFor(provider: WebhookProvider, type: string): WebhookHandler | null {
  return HANDLERS[provider]?.[type] ?? null;
}
