'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useId, useState, useSyncExternalStore } from 'react';
import { Button } from '@/components/ui/button';
import { formatDateTime } from '@/lib/i18n/formats';
import { fill, type WithSlots } from '@/lib/i18n/slots';

export type ExtendStayWords = {
  title: string;
  intro: string;
  newEnd: string;
  price: string;
  payOnline: string;
  payAtProperty: string;
  payNone: string;
  confirm: string;
  confirmPay: string;
  working: string;
  redirecting: string;
  extended: WithSlots<'time'>;
  unavailable: WithSlots<'time'>;
  unavailableNone: string;
  pendingWait: WithSlots<'time'>;
  awaiting: WithSlots<'time'>;
  payNow: string;
  confirming: string;
  error: string;
};

type Option = { endsAt: string; label: string; price: string };

type Props = {
  token: string;
  words: ExtendStayWords;
  paymentMode: 'none' | 'online' | 'at_property';
  /** The later ends the room allows, each with the price of the added time (the server's). */
  options: Option[];
  /** An extension waiting for its online payment. */
  pending: { label: string; price: string; paymentUrl: string | null } | null;
  /** The stay's end now, as the page shows it. */
  endLabel: string;
  format: { locale: string; timeZone: string; unit: 'night' | 'hour' };
};

type State =
  | { kind: 'idle' }
  | { kind: 'working' }
  | { kind: 'redirecting' }
  | { kind: 'unavailable'; latest: string | null }
  | { kind: 'wait'; until: string }
  | { kind: 'error' }
  | { kind: 'extended' };

const noSubscription = () => () => undefined;

/** How long the page waits for Stripe's word after the guest comes back from paying (refreshing every 2 s). */
const CONFIRM_MS = 60_000;

/**
 * The guest picks a later end, sees its price, and confirms: `POST /api/guest/{token}/extension`. Extended at once →
 * the page is rendered again with the new end; awaiting payment → the browser goes to the Checkout page, and coming
 * back (`?extension=paid`) the page refreshes until the payment has moved the end. A taken room says the latest end.
 */
export function ExtendStayForm({ token, words, paymentMode, options, pending, endLabel, format }: Props) {
  const router = useRouter();
  const id = useId();
  const [choice, setChoice] = useState(options[0]?.endsAt ?? '');
  const [state, setState] = useState<State>({ kind: 'idle' });
  // Back from the Checkout page (its success URL): read from the address, false while rendering on the server.
  const returned = useSyncExternalStore(
    noSubscription,
    () => new URLSearchParams(window.location.search).get('extension') === 'paid',
    () => false,
  );
  const picked = options.find((o) => o.endsAt === choice) ?? options[0];

  // Back from Checkout while the payment is still on its way: ask the server again until it has arrived.
  useEffect(() => {
    if (!returned || !pending) return;
    const started = Date.now();
    const timer = window.setInterval(() => {
      if (Date.now() - started > CONFIRM_MS) window.clearInterval(timer);
      else router.refresh();
    }, 2_000);
    return () => window.clearInterval(timer);
  }, [returned, pending, router]);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!picked) return;
    setState({ kind: 'working' });
    try {
      const response = await fetch(`/api/guest/${encodeURIComponent(token)}/extension`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ endsAt: picked.endsAt }),
      });
      const body = (await response.json().catch(() => null)) as {
        data?: { status: string; paymentUrl: string | null };
        error?: { code: string; latestEndsAt?: string; retryAt?: string };
      } | null;
      if (response.ok && body?.data?.status === 'awaiting_payment' && body.data.paymentUrl) {
        setState({ kind: 'redirecting' });
        window.location.assign(body.data.paymentUrl);
        return;
      }
      if (response.ok && body?.data?.status === 'extended') {
        setState({ kind: 'extended' });
        router.refresh();
        return;
      }
      if (response.status === 409 && body?.error?.code === 'room_unavailable') {
        setState({ kind: 'unavailable', latest: body.error.latestEndsAt ?? null });
        router.refresh();
        return;
      }
      if (response.status === 409 && body?.error?.code === 'extension_pending' && body.error.retryAt) {
        setState({ kind: 'wait', until: body.error.retryAt });
        return;
      }
      setState({ kind: 'error' });
    } catch {
      setState({ kind: 'error' });
    }
  }

  const latestLabel = (at: string) =>
    formatDateTime(at, format.unit === 'night' ? 'stamp' : 'time', {
      locale: format.locale,
      timeZone: format.timeZone,
    });
  const busy = state.kind === 'working' || state.kind === 'redirecting';
  const online = paymentMode === 'online';

  return (
    <section className="guest-card guest-extend" aria-labelledby={`${id}-title`} data-testid="guest-extend">
      <h2 id={`${id}-title`} className="guest-info__heading">
        {words.title}
      </h2>
      <div role="status" aria-live="polite" data-testid="guest-extend-status">
        {state.kind === 'extended' && (
          <p className="guest-status guest-status--success">{fill(words.extended, { time: endLabel })}</p>
        )}
        {state.kind === 'unavailable' && (
          <p className="guest-status guest-status--danger">
            {state.latest && state.latest !== ''
              ? fill(words.unavailable, { time: latestLabel(state.latest) })
              : words.unavailableNone}
          </p>
        )}
        {state.kind === 'wait' && (
          <p className="guest-status guest-status--danger" data-testid="guest-extend-wait">
            {fill(words.pendingWait, {
              time: formatDateTime(state.until, 'time', { locale: format.locale, timeZone: format.timeZone }),
            })}
          </p>
        )}
        {state.kind === 'error' && <p className="guest-status guest-status--danger">{words.error}</p>}
        {state.kind === 'redirecting' && <p className="guest-status guest-status--info">{words.redirecting}</p>}
        {pending && returned && <p className="guest-status guest-status--info">{words.confirming}</p>}
      </div>
      {pending && !returned && (
        <div className="guest-extend__pending" data-testid="guest-extend-pending">
          <p className="guest-text">
            {fill(words.awaiting, { time: pending.label })} ({pending.price})
          </p>
          {pending.paymentUrl && (
            <a className="guest-link" href={pending.paymentUrl}>
              {words.payNow}
            </a>
          )}
        </div>
      )}
      {options.length > 0 && picked && (
        <form onSubmit={submit} className="guest-extend__form">
          <p className="guest-text">{words.intro}</p>
          <label htmlFor={`${id}-end`} className="guest-info__label">
            {words.newEnd}
          </label>
          <select
            id={`${id}-end`}
            className="guest-extend__select"
            value={picked.endsAt}
            onChange={(e) => {
              setChoice(e.target.value);
              if (state.kind !== 'working') setState({ kind: 'idle' });
            }}
            disabled={busy}
            data-testid="guest-extend-end"
          >
            {options.map((o) => (
              <option key={o.endsAt} value={o.endsAt}>
                {o.label}
              </option>
            ))}
          </select>
          <p className="guest-extend__price">
            <span>{words.price}</span> <strong data-testid="guest-extend-price">{picked.price}</strong>
          </p>
          <p className="guest-hint">
            {online ? words.payOnline : paymentMode === 'at_property' ? words.payAtProperty : words.payNone}
          </p>
          <Button
            type="submit"
            variant="primary"
            block
            loading={busy}
            loadingLabel={words.working}
            data-testid="guest-extend-confirm"
          >
            {online ? words.confirmPay : words.confirm}
          </Button>
        </form>
      )}
    </section>
  );
}
