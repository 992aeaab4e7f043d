import http from 'node:http';

export type StubRequest = {
  method: string;
  path: string;
  idempotencyKey: string | null;
  stripeAccount: string | null;
  form: Record<string, string>;
};

export type StubIntent = {
  id: string;
  amount: number;
  currency: string;
  account: string | null;
  metadata?: Record<string, string>;
  status?: string;
};

/**
 * A local stand-in for Stripe's API (PaymentIntents only), recording what it was asked. Intents live
 * on an account (the `Stripe-Account` header, or the platform when absent) and are found only there,
 * as on Stripe: another account's intent answers 404 `resource_missing`.
 */
export async function startStripeStub(): Promise<{
  url: string;
  requests: StubRequest[];
  addIntent: (intent: StubIntent) => void;
  close: () => Promise<void>;
}> {
  const requests: StubRequest[] = [];
  const byIdempotencyKey = new Map<string, StubIntent>();
  const intents = new Map<string, StubIntent>();
  const toJson = (intent: StubIntent) => ({
    id: intent.id,
    object: 'payment_intent',
    amount: intent.amount,
    currency: intent.currency,
    metadata: intent.metadata ?? {},
    status: intent.status ?? 'requires_payment_method',
  });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      const idempotencyKey = (req.headers['idempotency-key'] as string | undefined) ?? null;
      const stripeAccount = (req.headers['stripe-account'] as string | undefined) ?? null;
      requests.push({ method: req.method ?? '', path: req.url ?? '', idempotencyKey, stripeAccount, form });
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method === 'POST' && req.url === '/v1/payment_intents') {
        const key = idempotencyKey ?? String(requests.length);
        const intent = byIdempotencyKey.get(key) ?? {
          id: `pi_stub${intents.size + 1}${Date.now()}`,
          amount: Number(form.amount),
          currency: form.currency!,
          account: stripeAccount,
          metadata: { bookingGroupId: form['metadata[bookingGroupId]']!, tenantId: form['metadata[tenantId]']! },
        };
        byIdempotencyKey.set(key, intent);
        intents.set(intent.id, intent);
        return send(200, toJson(intent));
      }
      const retrieve = /^\/v1\/payment_intents\/([A-Za-z0-9_]+)$/.exec(req.url ?? '');
      if (req.method === 'GET' && retrieve) {
        const intent = intents.get(retrieve[1]!);
        if (!intent || intent.account !== stripeAccount) {
          return send(404, {
            error: {
              type: 'invalid_request_error',
              code: 'resource_missing',
              message: `No such payment_intent: '${retrieve[1]}'`,
            },
          });
        }
        return send(200, toJson(intent));
      }
      send(404, { error: { type: 'invalid_request_error', message: 'not stubbed' } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    requests,
    addIntent: (intent) => intents.set(intent.id, intent),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
