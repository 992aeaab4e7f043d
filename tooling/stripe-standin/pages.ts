import type { CheckoutSession } from './types';

// Stripe's zero-decimal currencies: the amount is in whole units (1500 jpy is ¥1,500).
const ZERO_DECIMAL = new Set(
  'bif clp djf gnf jpy kmf krw mga pyg rwf ugx vnd vuv xaf xof xpf'.split(' ').map((c) => c.toLowerCase()),
);

/** An amount in Stripe's smallest unit of `currency`, for people: 1500 jpy → ¥1,500, 1250 usd → $12.50. */
export function formatAmount(amount: number, currency: string): string {
  const digits = ZERO_DECIMAL.has(currency.toLowerCase()) ? 0 : 2;
  try {
    return new Intl.NumberFormat('en', {
      style: 'currency',
      currency: currency.toUpperCase(),
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(amount / 10 ** digits);
  } catch {
    return `${(amount / 10 ** digits).toFixed(digits)} ${currency.toUpperCase()}`;
  }
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const NOTICE = 'Local payment stand-in — no real money is taken';

// Mobile first, system fonts, contrast above WCAG AA (#1f2933 on #ffffff, #ffffff on #1d4ed8).
const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1f2933;background:#f3f4f6}
main{max-width:28rem;margin:0 auto;padding:1.25rem}
.notice{margin:0 0 1rem;padding:.75rem 1rem;border-radius:.5rem;background:#fef3c7;color:#713f12;font-weight:600}
.card{background:#fff;border-radius:.75rem;padding:1.25rem;box-shadow:0 1px 2px rgba(0,0,0,.08)}
h1{font-size:1.25rem;margin:0 0 .5rem}
.amount{font-size:2rem;font-weight:700;margin:.25rem 0 1rem}
button{width:100%;min-height:3rem;border:0;border-radius:.5rem;background:#1d4ed8;color:#fff;font:inherit;font-weight:600;cursor:pointer}
button:focus-visible,a:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.cancel{display:block;text-align:center;margin-top:1rem;color:#1d4ed8;padding:.5rem}
`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<p class="notice" role="note">${NOTICE}</p>
${body}
</main>
</body>
</html>`;
}

/**
 * The page a guest reaches from `session.url` (its path is `payPath`, which holds the page's secret): the amount, a
 * Pay button and a Cancel link — or why it cannot be paid.
 */
export function paymentPage(session: CheckoutSession, productNames: string[], payPath: string): string {
  const amount = formatAmount(session.amount_total, session.currency);
  const what = productNames.length ? escapeHtml(productNames.join(', ')) : 'Payment';
  let action: string;
  if (session.status === 'open') {
    action = `<form method="post" action="${escapeHtml(payPath)}">
<button type="submit" aria-label="Pay ${escapeHtml(amount)}">Pay ${escapeHtml(amount)}</button>
</form>
<a class="cancel" href="${escapeHtml(session.cancel_url ?? '/')}">Cancel</a>`;
  } else if (session.status === 'complete') {
    action = `<p role="status"><strong>This payment is already complete.</strong> Nothing more to pay.</p>`;
  } else {
    action = `<p role="status"><strong>This payment session has expired.</strong> Nothing can be paid here any more.</p>`;
  }
  return layout(
    `Pay ${amount} — ${NOTICE}`,
    `<section class="card" aria-labelledby="what">
<h1 id="what">${what}</h1>
<p class="amount">${escapeHtml(amount)}</p>
${action}
</section>`,
  );
}

/**
 * The stand-in's own front page: what it is, and nothing it holds — no session, account or guest (whoever reaches
 * its port may open it; a payment page opens only from the link the app gave its guest).
 */
export function indexPage(): string {
  return layout(
    `Stripe stand-in — no real money is taken`,
    `<section class="card" aria-labelledby="standin-title">
<h1 id="standin-title">Stripe stand-in</h1>
<p>This machine's UnlockOS takes its online payments here instead of at Stripe. Nothing here reaches Stripe.</p>
<p>A guest pays on the page the app's payment link opens; a manager connects an account from the link the app gives.
This page lists neither, and the API answers only the key this stand-in was started with.</p>
</section>`,
  );
}

/** The onboarding page of an account link: one button "completes" onboarding, the other refuses it. */
export function onboardingPage(linkId: string, accountId: string): string {
  const action = `/connect/onboard/${escapeHtml(linkId)}`;
  return layout(
    'Set up payments',
    `<section class="card" aria-labelledby="onboard-title">
<h1 id="onboard-title">Set up payments for ${escapeHtml(accountId)}</h1>
<p>Stripe would ask here for the business's details and bank account. The stand-in asks nothing.</p>
<form method="post" action="${action}"><input type="hidden" name="outcome" value="complete">
<button type="submit" data-testid="standin-onboarding-complete">Complete onboarding</button></form>
<form method="post" action="${action}"><input type="hidden" name="outcome" value="refuse">
<button type="submit" class="cancel" data-testid="standin-onboarding-refuse">Refuse this account</button></form>
</section>`,
  );
}
