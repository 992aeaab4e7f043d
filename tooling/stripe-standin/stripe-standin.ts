import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { newStandinApiKey, sameSecret, STANDIN_API_KEY } from './api-key';
import { flattenForm, parseForm, type FormObject, type FormValue } from './parse-form';
import { indexPage, onboardingPage, paymentPage } from './pages';
import type { CheckoutSession, StandinAccount, StandinPaymentIntent, StandinRequest, StripeStandin } from './types';
import { webhookDeliverer } from './webhook-delivery';

export type { CheckoutSession, StandinAccount, StandinPaymentIntent, StandinRequest, StripeStandin };

type Stored<T> = { object: T; account: string | null };
type Reply = { status: number; body: unknown };
type ApiRequest = { method: string; path: string; account: string | null; form: FormObject; version: string | null };

const MAX_BODY_BYTES = 1024 * 1024;
const DAY_SECONDS = 24 * 60 * 60;
// The API version events carry when the request named none (the stripe SDK always names its own).
const FALLBACK_API_VERSION = '2026-10-28.endive';

// Ids (about 94 random bits) are not secrets: the app stores them, puts them in URLs and logs, and events carry them.
const newId = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
// The secret in a payment page's URL (192 bits), which only the session's creator is given (in `url`).
const newPageKey = () => randomBytes(24).toString('base64url');
const payPath = (id: string, pageKey: string) => `/pay/${id}/${pageKey}`;
// Connected account ids are letters and digits after `acct_`, as Stripe's are (tenants.stripe_account_id checks it).
const newAccountId = () => `acct_${randomBytes(12).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);
// An account link lives five minutes, as Stripe's do; after that (or once used) it sends the browser to refresh_url.
const ACCOUNT_LINK_SECONDS = 5 * 60;
const stripeError = (status: number, error: Record<string, string>): Reply => ({
  status,
  body: { error: { type: 'invalid_request_error', ...error } },
});
// Stripe's answers to a request without a key, or with one it does not know.
const NO_KEY = stripeError(401, {
  message:
    "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
});
const WRONG_KEY = stripeError(401, { message: 'Invalid API Key provided.' });
const missing = (kind: string, id: string) =>
  stripeError(404, { code: 'resource_missing', message: `No such ${kind}: '${id}'`, param: 'id' });
const invalid = (param: string, message: string, code = 'parameter_invalid') =>
  stripeError(400, { code, message, param });

const text = (value: FormValue | undefined): string | null => (typeof value === 'string' ? value : null);
const record = (value: FormValue | undefined): Record<string, string> =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'))
    : {};
const integer = (value: FormValue | undefined): number | null =>
  typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : null;
const isHttpUrl = (value: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

/**
 * A local stand-in for the parts of Stripe's REST API the product uses — Checkout Sessions, refunds,
 * PaymentIntents, and Connect accounts with their onboarding links (`/connect/onboard/:id`) — form-encoded as the stripe SDK sends them, answered in Stripe's JSON shapes and
 * errors, with a payment page at `/pay/:id/:key` and signed webhooks to `webhookUrl` (none when null).
 * Its API takes only `apiKey` (made here when not given; see `apiKey` of the result) and answers any other
 * key 401 as Stripe does; a payment page or an onboarding page opens only at the URL the API gave, and
 * its front page lists nothing.
 * Objects live on the account of the `Stripe-Account` header (the platform when absent) and are found
 * only there; the same `Idempotency-Key` on an account gives the same answer. Nothing from a request
 * body is logged. `npm start` runs one when STRIPE_SECRET_KEY is not set (scripts/stripe-standin.ts).
 */
export async function startStripeStandin(options: {
  webhookUrl: string | null;
  webhookSecret: string;
  /** The only key the API takes: `sk_test_` and at least 32 letters or digits (newStandinApiKey). */
  apiKey?: string;
  host?: string;
  port?: number;
  retryDelaysMs?: readonly number[];
  onRequest?: (request: StandinRequest) => void;
}): Promise<StripeStandin> {
  const host = options.host ?? '127.0.0.1';
  const apiKey = options.apiKey ?? newStandinApiKey();
  if (!STANDIN_API_KEY.test(apiKey))
    throw new Error('The Stripe stand-in needs an sk_test_ key of 32 or more letters.');
  const checkoutSessions = new Map<string, Stored<CheckoutSession>>();
  const productNames = new Map<string, string[]>();
  // Session id → the secret of its payment page's URL.
  const pageKeys = new Map<string, string>();
  const intents = new Map<string, StandinPaymentIntent>();
  const refunded = new Map<string, number>();
  const idempotent = new Map<string, { fingerprint: string; reply: Reply }>();
  const expiryTimers = new Map<string, NodeJS.Timeout>();
  const deliverer = webhookDeliverer({
    url: options.webhookUrl,
    secret: options.webhookSecret,
    retryDelaysMs: options.retryDelaysMs,
  });
  const apiVersions = new Map<string, string>();
  const accounts = new Map<string, StandinAccount>();
  const accountLinks = new Map<
    string,
    { account: string; refreshUrl: string; returnUrl: string; expiresAt: number; used: boolean }
  >();
  let baseUrl = '';

  const sendEvent = (type: string, object: unknown, account: string | null, version: string | null) =>
    deliverer.send({
      id: newId('evt'),
      object: 'event',
      ...(account ? { account } : {}),
      api_version: version ?? FALLBACK_API_VERSION,
      created: now(),
      data: { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    });

  /** Expires an open session (its time is up, or it was asked to) and tells the webhook. */
  const expire = (stored: Stored<CheckoutSession>) => {
    const session = stored.object;
    if (session.status !== 'open') return;
    clearTimeout(expiryTimers.get(session.id));
    expiryTimers.delete(session.id);
    session.status = 'expired';
    session.url = null;
    void sendEvent('checkout.session.expired', { ...session }, stored.account, apiVersions.get(session.id) ?? null);
  };

  /** A session past its `expires_at` is expired by the time anyone looks, even if its timer is late. */
  const lookUp = (id: string): Stored<CheckoutSession> | undefined => {
    const stored = checkoutSessions.get(id);
    if (stored && stored.object.status === 'open' && stored.object.expires_at <= now()) expire(stored);
    return stored;
  };

  const createSession = (request: ApiRequest): Reply => {
    const { form } = request;
    if (text(form.mode) !== 'payment') return invalid('mode', 'The stand-in supports only `mode: payment`.');
    const successUrl = text(form.success_url);
    if (!successUrl || !isHttpUrl(successUrl)) return invalid('success_url', 'Not a valid URL');
    const cancelUrl = text(form.cancel_url);
    if (cancelUrl !== null && !isHttpUrl(cancelUrl)) return invalid('cancel_url', 'Not a valid URL');
    const items = Array.isArray(form.line_items) ? form.line_items : null;
    if (!items?.length) {
      return invalid('line_items', 'Missing required param: line_items.', 'parameter_missing');
    }
    let total = 0;
    let currency: string | null = null;
    const names: string[] = [];
    for (const [i, item] of items.entries()) {
      const line = typeof item === 'object' && !Array.isArray(item) ? item : {};
      const price = typeof line.price_data === 'object' && !Array.isArray(line.price_data) ? line.price_data : {};
      const unitAmount = integer(price.unit_amount);
      const quantity = integer(line.quantity ?? '1');
      const lineCurrency = text(price.currency)?.toLowerCase() ?? null;
      const product =
        typeof price.product_data === 'object' && !Array.isArray(price.product_data) ? price.product_data : {};
      if (unitAmount === null || unitAmount < 0) {
        return invalid(`line_items[${i}][price_data][unit_amount]`, 'Invalid non-negative integer');
      }
      if (quantity === null || quantity < 1) return invalid(`line_items[${i}][quantity]`, 'Invalid positive integer');
      if (!lineCurrency || !/^[a-z]{3}$/.test(lineCurrency)) {
        return invalid(`line_items[${i}][price_data][currency]`, 'Invalid currency');
      }
      if (currency && currency !== lineCurrency) {
        return invalid('line_items', 'All line items must have the same currency.');
      }
      const name = text(product.name);
      if (!name) {
        return invalid(
          `line_items[${i}][price_data][product_data][name]`,
          'Missing required param.',
          'parameter_missing',
        );
      }
      currency = lineCurrency;
      total += unitAmount * quantity;
      names.push(quantity > 1 ? `${name} × ${quantity}` : name);
    }
    const created = now();
    // Live Stripe also refuses an expires_at less than 30 minutes ahead (the stand-in, as specified,
    // accepts any future time): a shorter hold needs at least 30 minutes here and POST …/expire at its end.
    const expiresAt = form.expires_at === undefined ? created + DAY_SECONDS : integer(form.expires_at);
    if (expiresAt === null || expiresAt <= created || expiresAt > created + DAY_SECONDS) {
      return invalid(
        'expires_at',
        'The `expires_at` timestamp must be in the future and less than 24 hours from Checkout Session creation.',
      );
    }
    const id = newId('cs');
    const pageKey = newPageKey();
    const session: CheckoutSession = {
      id,
      object: 'checkout.session',
      amount_subtotal: total,
      amount_total: total,
      cancel_url: cancelUrl,
      client_reference_id: text(form.client_reference_id),
      created,
      currency: currency!,
      customer_email: text(form.customer_email),
      expires_at: expiresAt,
      livemode: false,
      locale: text(form.locale),
      metadata: record(form.metadata),
      mode: 'payment',
      payment_intent: null,
      payment_status: 'unpaid',
      status: 'open',
      success_url: successUrl,
      url: `${baseUrl}${payPath(id, pageKey)}`,
    };
    pageKeys.set(id, pageKey);
    const stored = { object: session, account: request.account };
    checkoutSessions.set(id, stored);
    productNames.set(id, names);
    if (request.version) apiVersions.set(id, request.version);
    const timer = setTimeout(() => expire(stored), expiresAt * 1000 - Date.now());
    timer.unref();
    expiryTimers.set(id, timer);
    return { status: 200, body: session };
  };

  const onAccount = (id: string, account: string | null) => {
    const stored = lookUp(id);
    return stored && stored.account === account ? stored : undefined;
  };

  const createRefund = (request: ApiRequest): Reply => {
    const intentId = text(request.form.payment_intent);
    if (!intentId) return invalid('payment_intent', 'Missing required param: payment_intent.', 'parameter_missing');
    const intent = intents.get(intentId);
    if (!intent || intent.account !== request.account) return missing('payment_intent', intentId);
    if (intent.status !== 'succeeded') {
      return stripeError(400, {
        code: 'charge_not_refundable',
        message: 'This PaymentIntent has no charge to refund.',
      });
    }
    const already = refunded.get(intentId) ?? 0;
    const left = intent.amount - already;
    const amount = request.form.amount === undefined ? left : integer(request.form.amount);
    if (left <= 0) {
      return stripeError(400, {
        code: 'charge_already_refunded',
        message: `Charge for ${intentId} has already been refunded.`,
      });
    }
    if (amount === null || amount <= 0 || amount > left) {
      return invalid('amount', `Refund amount (${amount}) is greater than unrefunded amount on charge (${left}).`);
    }
    refunded.set(intentId, already + amount);
    const chargeId = `ch_${intentId.replace(/^pi_/, '')}`;
    const refund = {
      id: newId('re'),
      object: 'refund',
      amount,
      charge: chargeId,
      created: now(),
      currency: intent.currency,
      metadata: record(request.form.metadata),
      payment_intent: intentId,
      reason: text(request.form.reason),
      status: 'succeeded',
    };
    const charge = {
      id: chargeId,
      object: 'charge',
      amount: intent.amount,
      amount_captured: intent.amount,
      amount_refunded: already + amount,
      currency: intent.currency,
      livemode: false,
      metadata: intent.metadata ?? {},
      paid: true,
      payment_intent: intentId,
      refunded: already + amount === intent.amount,
      refunds: { object: 'list', data: [refund], has_more: false },
      status: 'succeeded',
    };
    void sendEvent('charge.refunded', charge, intent.account, request.version);
    return { status: 200, body: refund };
  };

  const intentJson = (intent: StandinPaymentIntent) => ({
    id: intent.id,
    object: 'payment_intent',
    amount: intent.amount,
    currency: intent.currency,
    livemode: false,
    metadata: intent.metadata ?? {},
    status: intent.status ?? 'requires_payment_method',
  });

  const createIntent = (request: ApiRequest): Reply => {
    const amount = integer(request.form.amount);
    const currency = text(request.form.currency)?.toLowerCase();
    if (amount === null || amount < 1) return invalid('amount', 'Invalid positive integer');
    if (!currency) return invalid('currency', 'Missing required param: currency.', 'parameter_missing');
    const intent: StandinPaymentIntent = {
      id: newId('pi'),
      amount,
      currency,
      account: request.account,
      metadata: record(request.form.metadata),
    };
    intents.set(intent.id, intent);
    return { status: 200, body: intentJson(intent) };
  };

  const createAccount = (request: ApiRequest): Reply => {
    if (request.account) return invalid('account', 'Connected accounts are made by the platform, not on an account.');
    const type = text(request.form.type) ?? 'standard';
    if (type !== 'standard' && type !== 'express' && type !== 'custom') return invalid('type', 'Invalid account type');
    const account: StandinAccount = {
      id: newAccountId(),
      object: 'account',
      type,
      country: text(request.form.country),
      email: text(request.form.email),
      created: now(),
      details_submitted: false,
      charges_enabled: false,
      payouts_enabled: false,
      metadata: record(request.form.metadata),
      requirements: {
        currently_due: ['business_profile.url', 'external_account'],
        disabled_reason: 'requirements.past_due',
      },
    };
    accounts.set(account.id, account);
    return { status: 200, body: account };
  };

  const createAccountLink = (request: ApiRequest): Reply => {
    const accountId = text(request.form.account);
    if (!accountId) return invalid('account', 'Missing required param: account.', 'parameter_missing');
    if (!accounts.has(accountId)) return missing('account', accountId);
    if (text(request.form.type) !== 'account_onboarding') {
      return invalid('type', 'The stand-in supports only `type: account_onboarding`.');
    }
    const refreshUrl = text(request.form.refresh_url);
    const returnUrl = text(request.form.return_url);
    if (!refreshUrl || !isHttpUrl(refreshUrl)) return invalid('refresh_url', 'Not a valid URL');
    if (!returnUrl || !isHttpUrl(returnUrl)) return invalid('return_url', 'Not a valid URL');
    // The link's id is its secret: its page opens for whoever holds the URL, as Stripe's do.
    const id = randomBytes(24).toString('hex');
    const created = now();
    accountLinks.set(id, {
      account: accountId,
      refreshUrl,
      returnUrl,
      expiresAt: created + ACCOUNT_LINK_SECONDS,
      used: false,
    });
    return {
      status: 200,
      body: {
        object: 'account_link',
        created,
        expires_at: created + ACCOUNT_LINK_SECONDS,
        url: `${baseUrl}/connect/onboard/${id}`,
      },
    };
  };

  const api = (request: ApiRequest): Reply => {
    const { method, path } = request;
    if (method === 'POST' && path === '/v1/accounts') return createAccount(request);
    if (method === 'POST' && path === '/v1/account_links') return createAccountLink(request);
    const accountPath = /^\/v1\/accounts\/(acct_[A-Za-z0-9]+)$/.exec(path);
    if (accountPath && method === 'GET') {
      const found = accounts.get(accountPath[1]!);
      // The platform reads its connected accounts; an account reads only itself.
      return found && (request.account === null || request.account === found.id)
        ? { status: 200, body: found }
        : missing('account', accountPath[1]!);
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') return createSession(request);
    if (method === 'POST' && path === '/v1/refunds') return createRefund(request);
    if (method === 'POST' && path === '/v1/payment_intents') return createIntent(request);
    const session = /^\/v1\/checkout\/sessions\/([A-Za-z0-9_]+)(\/expire)?$/.exec(path);
    if (session) {
      const stored = onAccount(session[1]!, request.account);
      if (method === 'GET' && !session[2])
        return stored ? { status: 200, body: stored.object } : missing('checkout.session', session[1]!);
      if (method === 'POST' && session[2]) {
        if (!stored) return missing('checkout.session', session[1]!);
        if (stored.object.status !== 'open') {
          return stripeError(400, {
            code: 'checkout_session_not_open',
            message: `Only Checkout Sessions with a status of \`open\` can be expired; this one is \`${stored.object.status}\`.`,
          });
        }
        expire(stored);
        return { status: 200, body: stored.object };
      }
    }
    const intent = /^\/v1\/payment_intents\/([A-Za-z0-9_]+)$/.exec(path);
    if (intent && method === 'GET') {
      const found = intents.get(intent[1]!);
      return found && found.account === request.account
        ? { status: 200, body: intentJson(found) }
        : missing('payment_intent', intent[1]!);
    }
    return stripeError(404, { message: `Unrecognized request URL (${method}: ${path}).` });
  };

  /** The session whose payment page `/pay/{id}/{key}` is, when `key` is the one its URL was given with. */
  const onPage = (id: string, key: string) => {
    const expected = pageKeys.get(id);
    return expected !== undefined && sameSecret(key, expected) ? lookUp(id) : undefined;
  };

  /** Paying on the page: the session completes once, its event is delivered, then the guest goes back. */
  const pay = async (stored: Stored<CheckoutSession>, res: http.ServerResponse) => {
    const session = stored.object;
    const id = session.id;
    if (session.status === 'expired') return sendPage(res, 409, stored);
    const back = session.success_url.replaceAll('{CHECKOUT_SESSION_ID}', session.id);
    if (session.status === 'open') {
      clearTimeout(expiryTimers.get(id));
      expiryTimers.delete(id);
      const intent: StandinPaymentIntent = {
        id: newId('pi'),
        amount: session.amount_total,
        currency: session.currency,
        account: stored.account,
        metadata: { ...session.metadata },
        status: 'succeeded',
      };
      intents.set(intent.id, intent);
      Object.assign(session, { status: 'complete', payment_status: 'paid', payment_intent: intent.id, url: null });
      await sendEvent('checkout.session.completed', { ...session }, stored.account, apiVersions.get(id) ?? null);
    }
    res.writeHead(303, { location: back, 'cache-control': 'no-store' });
    res.end();
  };

  /**
   * An account link's page: a used or expired link sends the browser to its refresh_url (as Stripe's do);
   * completing makes the account able to take charges, refusing rejects it; either way `account.updated`
   * goes to the webhook and the browser to return_url.
   */
  const onboarding = async (id: string, method: string, form: FormObject, res: http.ServerResponse) => {
    const link = accountLinks.get(id);
    if (!link) return sendHtml(res, 404, 'No such account link.');
    const redirect = (location: string) => {
      res.writeHead(303, { location, 'cache-control': 'no-store' });
      res.end();
    };
    if (link.used || link.expiresAt <= now()) return redirect(link.refreshUrl);
    if (method === 'GET') return sendHtml(res, 200, onboardingPage(id, link.account));
    if (method !== 'POST') return sendHtml(res, 405, 'Method not allowed.');
    link.used = true;
    const account = accounts.get(link.account)!;
    if (text(form.outcome) === 'refuse') {
      Object.assign(account, {
        details_submitted: true,
        charges_enabled: false,
        payouts_enabled: false,
        requirements: { currently_due: [], disabled_reason: 'rejected.other' },
      });
    } else {
      Object.assign(account, {
        details_submitted: true,
        charges_enabled: true,
        payouts_enabled: true,
        requirements: { currently_due: [], disabled_reason: null },
      });
    }
    await sendEvent('account.updated', { ...account }, account.id, null);
    redirect(link.returnUrl);
  };

  const sendJson = (res: http.ServerResponse, reply: Reply) => {
    res.writeHead(reply.status, { 'content-type': 'application/json', 'request-id': newId('req') });
    res.end(JSON.stringify(reply.body));
  };
  const sendHtml = (res: http.ServerResponse, status: number, html: string) => {
    res.writeHead(status, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http: https:",
      'x-content-type-options': 'nosniff',
    });
    res.end(html);
  };
  const sendPage = (res: http.ServerResponse, status: number, stored: Stored<CheckoutSession>) => {
    const { id } = stored.object;
    sendHtml(res, status, paymentPage(stored.object, productNames.get(id) ?? [], payPath(id, pageKeys.get(id)!)));
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse, body: string) => {
    const method = req.method ?? 'GET';
    const path = new URL(req.url ?? '/', 'http://standin').pathname;
    if (path.startsWith('/v1/')) {
      const account = (req.headers['stripe-account'] as string | undefined) ?? null;
      const idempotencyKey = (req.headers['idempotency-key'] as string | undefined) ?? null;
      const given = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (given === undefined) return sendJson(res, NO_KEY);
      if (!sameSecret(given, apiKey)) return sendJson(res, WRONG_KEY);
      const form = parseForm(body);
      options.onRequest?.({ method, path, idempotencyKey, stripeAccount: account, form: flattenForm(form) });
      const request = { method, path, account, form, version: (req.headers['stripe-version'] as string) ?? null };
      if (method !== 'POST' || !idempotencyKey) return sendJson(res, api(request));
      // Stripe keys idempotency per account; a reused key with other parameters is an error.
      const key = `${account ?? ''}\n${path}\n${idempotencyKey}`;
      const fingerprint = createHash('sha256').update(body).digest('hex');
      const earlier = idempotent.get(key);
      if (earlier && earlier.fingerprint !== fingerprint) {
        return sendJson(res, {
          status: 400,
          body: {
            error: {
              type: 'idempotency_error',
              message:
                'Keys for idempotent requests can only be used with the same parameters they were first used with.',
            },
          },
        });
      }
      const reply = earlier?.reply ?? api(request);
      if (!earlier && reply.status < 500) idempotent.set(key, { fingerprint, reply });
      return sendJson(res, reply);
    }
    const page = /^\/pay\/([A-Za-z0-9_]+)\/([A-Za-z0-9_-]+)$/.exec(path);
    if (page && (method === 'GET' || method === 'POST')) {
      const stored = onPage(page[1]!, page[2]!);
      if (!stored) return sendHtml(res, 404, 'No such payment session.');
      return method === 'GET' ? sendPage(res, 200, stored) : pay(stored, res);
    }
    const onboard = /^\/connect\/onboard\/([a-f0-9]+)$/.exec(path);
    if (onboard) return onboarding(onboard[1]!, method, parseForm(body), res);
    if (path === '/' && method === 'GET') return sendHtml(res, 200, indexPage());
    sendHtml(res, 404, 'Not found.');
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        sendJson(res, stripeError(413, { message: 'Request body too large.' }));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => {
      handle(req, res, Buffer.concat(chunks).toString('utf8')).catch(() => {
        if (!res.headersSent)
          sendJson(res, { status: 500, body: { error: { type: 'api_error', message: 'Stand-in error.' } } });
        else res.end();
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as { port: number };
  baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  return {
    url: baseUrl,
    apiKey,
    sessions: () => [...checkoutSessions.values()].map((s) => ({ ...s.object, account: s.account })),
    accounts: () => [...accounts.values()].map((a) => ({ ...a })),
    addPaymentIntent: (intent) => intents.set(intent.id, intent),
    close: () =>
      new Promise((resolve) => {
        deliverer.close();
        for (const timer of expiryTimers.values()) clearTimeout(timer);
        expiryTimers.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
