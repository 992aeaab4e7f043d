'use client';

import { useQuery } from '@tanstack/react-query';
import { Button } from '@/components/ui/button';
import { formatDateTime, formatDateTimeRange } from '@/lib/i18n/formats';
import { fill } from '@/lib/i18n/slots';
import { formatAmount } from '../_lib/format';
import { errorText, PublicApiError, publicApi } from './api';
import type { DoneWords } from './booking-words';
import type { TRequestStatus } from '@/lib/booking-site/booking-requests';

/** `GET /api/public/booking-requests/{id}`: where a booking request stands (the server's own type). */
export type RequestState = TRequestStatus;

const FINAL = new Set<RequestState['status']>(['confirmed', 'cancelled', 'gone']);
const POLL_MS = 2_000;

type Props = {
  slug: string;
  requestId: string;
  unit: 'night' | 'hour';
  timeZone: string;
  tag: string;
  words: DoneWords;
};

/**
 * The confirmation page's state of one booking request, asked every 2 s until it is final: the
 * Stripe webhook may confirm a paid hold a moment after the guest lands here, or the hold may run
 * out (cancelled, nothing charged; a payment that came too late is refunded).
 */
export function BookingDone({ slug, requestId, unit, timeZone, tag, words }: Props) {
  const state = useQuery({
    queryKey: ['booking-request', requestId],
    queryFn: ({ signal }) =>
      publicApi<RequestState>(`/booking-requests/${encodeURIComponent(requestId)}`, undefined, signal),
    refetchInterval: (query) => {
      const data = query.state.data;
      if (data && FINAL.has(data.status)) return false;
      const error = query.state.error;
      if (error instanceof PublicApiError && error.status === 404) return false;
      if (error instanceof PublicApiError && error.retryAfter) return error.retryAfter * 1000;
      return POLL_MS;
    },
    retry: false,
  });
  const again = `/b/${encodeURIComponent(slug)}`;

  if (state.isPending)
    return (
      <div className="guest-status guest-status--info" role="status" data-testid="done-status" data-state="loading">
        <span className="spinner" aria-hidden="true" /> {words.loading}
      </div>
    );

  if (!state.data) {
    const notFound = state.error instanceof PublicApiError && state.error.status === 404;
    return (
      <div className="book-error" role="alert" data-testid="done-status" data-state="error">
        <p>{notFound ? words.notFound : errorText(state.error, words.errors)}</p>
        {notFound ? (
          <a className="guest-link" href={again}>
            {words.bookAgain}
          </a>
        ) : (
          <Button onClick={() => void state.refetch()}>{words.errors.retry}</Button>
        )}
      </div>
    );
  }

  const data = state.data;
  // A stay by its days, an hourly booking by its times, in the facility's zone.
  const when = formatDateTimeRange(data.startsAt, data.endsAt, unit === 'night' ? 'day' : 'stamp', {
    locale: tag,
    timeZone,
  });

  const status = (() => {
    switch (data.status) {
      case 'confirmed':
        return { tone: 'success', text: words.confirmed };
      case 'held':
        return { tone: 'info', text: words.waiting, busy: true };
      case 'awaiting_code':
        return { tone: 'info', text: words.awaitingCode };
      case 'cancelled':
        return { tone: 'neutral', text: data.refunded ? words.refunded : words.cancelled };
      default:
        return { tone: 'neutral', text: words.gone };
    }
  })();

  return (
    <div className="book-done">
      <div
        className={`guest-status guest-status--${status.tone}`}
        role="status"
        aria-live="polite"
        data-testid="done-status"
        data-state={data.status}
      >
        {status.busy && <span className="spinner" aria-hidden="true" />}
        <span className="guest-status__text">{status.text}</span>
      </div>
      {data.status === 'confirmed' && (
        <>
          <p data-testid="done-key-mailed">{words.keyMailed}</p>
          {data.payment === 'at_property' && <p className="guest-note">{words.payAtProperty}</p>}
          {data.paid && <p className="guest-hint">{words.paid}</p>}
        </>
      )}
      {data.status === 'held' && data.holdExpiresAt && (
        <p className="guest-hint">
          {fill(words.held, { time: formatDateTime(data.holdExpiresAt, 'time', { locale: tag, timeZone }) })}
        </p>
      )}
      {data.status === 'held' && data.paymentUrl && !data.paid && (
        <a className="guest-link" href={data.paymentUrl}>
          {words.backToPayment}
        </a>
      )}
      {(data.status === 'cancelled' || data.status === 'gone' || data.status === 'awaiting_code') && (
        <a className="guest-link" href={again}>
          {data.status === 'awaiting_code' ? words.enterCode : words.bookAgain}
        </a>
      )}
      <dl className="guest-facts book-summary" data-testid="done-summary">
        <div>
          <dt>{words.room}</dt>
          <dd>{data.roomTypeName}</dd>
        </div>
        <div>
          <dt>{words.when}</dt>
          <dd>{when}</dd>
        </div>
        <div>
          <dt>{words.price}</dt>
          <dd>{formatAmount(tag, data.amountCents, data.currency)}</dd>
        </div>
      </dl>
    </div>
  );
}
