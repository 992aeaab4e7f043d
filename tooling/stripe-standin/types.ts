/** A Checkout Session as Stripe's API returns it (the fields the product reads, and a few more). */
export type CheckoutSession = {
  id: string;
  object: 'checkout.session';
  amount_subtotal: number;
  amount_total: number;
  cancel_url: string | null;
  client_reference_id: string | null;
  created: number;
  currency: string;
  customer_email: string | null;
  expires_at: number;
  livemode: false;
  locale: string | null;
  metadata: Record<string, string>;
  mode: 'payment';
  payment_intent: string | null;
  payment_status: 'unpaid' | 'paid';
  status: 'open' | 'complete' | 'expired';
  success_url: string;
  url: string | null;
};

/** A PaymentIntent as the product reads it. */
export type StandinPaymentIntent = {
  id: string;
  amount: number;
  currency: string;
  /** The connected account it lives on (`Stripe-Account`), null for the platform. */
  account: string | null;
  metadata?: Record<string, string>;
  status?: string;
};

/** One API request as the stand-in received it (for tests that assert on what the product sent). */
export type StandinRequest = {
  method: string;
  path: string;
  idempotencyKey: string | null;
  stripeAccount: string | null;
  /** The form as sent, its nested keys flattened (`metadata[bookingGroupId]`). */
  form: Record<string, string>;
};

export type StripeStandin = {
  url: string;
  /** The only key its API takes (the one it was started with, else made at start): hand it to the app's client. */
  apiKey: string;
  close: () => Promise<void>;
  /** Every checkout session, oldest first, with the account it lives on. */
  sessions: () => (CheckoutSession & { account: string | null })[];
  /** Every connected account made through POST /v1/accounts, oldest first. */
  accounts: () => StandinAccount[];
  /** Puts a PaymentIntent on an account, as if it had been created there before. */
  addPaymentIntent: (intent: StandinPaymentIntent) => void;
};

/** A connected account as Stripe's API returns it (the fields the product reads). */
export type StandinAccount = {
  id: string;
  object: 'account';
  type: 'standard' | 'express' | 'custom';
  country: string | null;
  email: string | null;
  created: number;
  details_submitted: boolean;
  charges_enabled: boolean;
  payouts_enabled: boolean;
  metadata: Record<string, string>;
  requirements: { currently_due: string[]; disabled_reason: string | null };
};
