import Stripe from 'stripe';

/** Waits before the 2nd, 3rd, … attempt of one delivery: a few retries, backing off, as Stripe does (over days). */
export const DEFAULT_RETRY_DELAYS_MS = [1_000, 5_000, 30_000, 120_000] as const;
const ATTEMPT_TIMEOUT_MS = 10_000;

// Only the signing helper is used: it needs no API key and makes no request.
const signer = new Stripe('sk_test_standin_signer').webhooks;

export type WebhookDeliverer = {
  /** Sends one event; resolves after its first attempt (true when it was answered 2xx), retries continue in the background. */
  send: (event: { id: string; type: string; [field: string]: unknown }) => Promise<boolean>;
  /** Stops every pending retry and in-flight attempt. */
  close: () => void;
};

/**
 * Delivers events to one webhook URL signed with `secret` the way Stripe signs them (the SDK's own
 * `generateTestHeaderString`, a fresh timestamp on each attempt); a non-2xx answer or a network error
 * is retried after each of `retryDelaysMs`. Nothing about the payload is logged.
 */
export function webhookDeliverer(options: {
  url: string | null;
  secret: string;
  retryDelaysMs?: readonly number[];
}): WebhookDeliverer {
  const delays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const timers = new Set<NodeJS.Timeout>();
  const inFlight = new Set<AbortController>();
  let closed = false;

  const attempt = async (payload: string): Promise<boolean> => {
    if (!options.url || closed) return false;
    const controller = new AbortController();
    inFlight.add(controller);
    const timer = setTimeout(() => controller.abort(), ATTEMPT_TIMEOUT_MS);
    try {
      const response = await fetch(options.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': signer.generateTestHeaderString({ payload, secret: options.secret }),
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks) UnlockOS-standin',
        },
        body: payload,
        signal: controller.signal,
      });
      await response.arrayBuffer().catch(() => undefined);
      return response.ok;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
      inFlight.delete(controller);
    }
  };

  const retry = (payload: string, index: number) => {
    if (closed || index >= delays.length) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      void attempt(payload).then((ok) => {
        if (!ok) retry(payload, index + 1);
      });
    }, delays[index]);
    timers.add(timer);
  };

  return {
    send: async (event) => {
      const payload = JSON.stringify(event);
      const ok = await attempt(payload);
      if (!ok) retry(payload, 0);
      return ok;
    },
    close: () => {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const controller of inFlight) controller.abort();
    },
  };
}
