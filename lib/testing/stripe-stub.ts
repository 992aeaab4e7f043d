import http from 'node:http';

export type StubRequest = { method: string; path: string; idempotencyKey: string | null; stripeAccount: string | null; form: Record<string, string> };

/** A local stand-in for Stripe's API (PaymentIntents only), recording what it was asked. */
export async function startStripeStub(): Promise<{ url: string; requests: StubRequest[]; close: () => Promise<void> }> {
  const requests: StubRequest[] = [];
  const intents = new Map<string, Record<string, unknown>>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      const idempotencyKey = (req.headers['idempotency-key'] as string | undefined) ?? null;
      requests.push({ method: req.method ?? '', path: req.url ?? '', idempotencyKey, stripeAccount: (req.headers['stripe-account'] as string | undefined) ?? null, form });
      if (req.method === 'POST' && req.url === '/v1/payment_intents') {
        const key = idempotencyKey ?? String(requests.length);
        const existing = intents.get(key);
        const intent = existing ?? {
          id: `pi_stub${intents.size + 1}${Date.now()}`, object: 'payment_intent', amount: Number(form.amount), currency: form.currency,
          metadata: { bookingGroupId: form['metadata[bookingGroupId]'], tenantId: form['metadata[tenantId]'] }, status: 'requires_payment_method',
        };
        intents.set(key, intent);
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify(intent));
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'not stubbed' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    requests,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
