'use client';

import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { formatDateTime } from '@/lib/i18n/formats';
import { fill } from '@/lib/i18n/slots';
import {
  guestPhaseOf,
  guestViewOf,
  nextBoundary,
  shownPin,
  type GuestStatus,
  type GuestView,
} from '@/lib/guests/guest-view';
import type { GuestKeyWords } from './guest-key-words';
import { CheckInButton, CheckOut } from './self-service';

type Props = {
  token: string;
  /** The facility's IANA time zone: every time on the page is shown in it. */
  timeZone: string;
  /** The formatting tag of the guest's language (`intlLocale`: en-GB, ja-JP). */
  locale: string;
  /** Its words, translated by the page (guest-key-words.ts): no i18n runtime on the phone. */
  words: GuestKeyWords;
  /** The stay and key as the server read them while rendering (the PIN is in the first HTML); null when it could not. */
  initial: GuestStatus | null;
  /** When the server rendered, so the first render here derives the same view (ms since the epoch). */
  renderedAt: number;
};

/** How often the open page asks whether anything changed (a 304 when nothing did), and while the lock confirms. */
const POLL_MS = 5_000;
const POLL_WHILE_ACTIVATING_MS = 2_000;

type Poll = {
  status: GuestStatus | null;
  /** The link answers 404: rotated, expired, or the guest deleted. */
  gone: boolean;
  /** No answer yet and the last attempt failed. */
  failed: boolean;
  now: number;
};

type View = GuestView | { kind: 'loading' | 'notFound' | 'error' };

/**
 * The page's stay and key, kept true while the page is open: `GET /api/guest/{token}/status` every
 * 5 s while the page is visible (2 s while the lock confirms), at once when it becomes visible,
 * gains focus or reconnects, paused while hidden. Each poll sends the last ETag, so an unchanged
 * state is a 304 with no body. Plain fetch and timers: this page loads no query library
 * (docs/PERFORMANCE.md). `pollNow` asks at once. Between answers, the clock moves the view on at
 * the key's start and end and the stay's end, so a PIN never outlives its key by a poll.
 */
function useGuestStatus(token: string, initial: GuestStatus | null, renderedAt: number) {
  const [poll, setPoll] = useState<Poll>({ status: initial, gone: false, failed: false, now: renderedAt });
  const etag = useRef<string | null>(null);
  const pollNow = useRef<() => void>(() => undefined);
  const activating = useRef(initial?.key?.vendorSync === 'pending');

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let inFlight = false;
    let stopped = false;
    let failures = 0;
    const controller = new AbortController();
    const base = `/api/guest/${encodeURIComponent(token)}`;
    const schedule = (ms: number) => {
      clearTimeout(timer);
      if (!stopped) timer = setTimeout(run, ms);
    };
    async function run() {
      clearTimeout(timer);
      if (stopped || inFlight || document.hidden) return;
      inFlight = true;
      let next = activating.current ? POLL_WHILE_ACTIVATING_MS : POLL_MS;
      try {
        const response = await fetch(`${base}/status`, {
          cache: 'no-store',
          headers: etag.current ? { 'if-none-match': etag.current } : {},
          signal: controller.signal,
        });
        if (response.status === 404) {
          stopped = true;
          setPoll((p) => ({ ...p, status: null, gone: true, now: Date.now() }));
          return;
        }
        if (response.status === 429) {
          const after = Number(response.headers.get('retry-after'));
          next = Math.min(Math.max(Number.isFinite(after) ? after * 1000 : POLL_MS, POLL_MS), 60_000);
          setPoll((p) => ({ ...p, now: Date.now() }));
        } else if (response.status === 304) {
          failures = 0;
          setPoll((p) => ({ ...p, now: Date.now() }));
        } else if (response.ok) {
          failures = 0;
          const body = (await response.json()) as { data: GuestStatus };
          etag.current = response.headers.get('etag');
          activating.current = body.data.key?.vendorSync === 'pending';
          next = activating.current ? POLL_WHILE_ACTIVATING_MS : POLL_MS;
          setPoll({ status: body.data, gone: false, failed: false, now: Date.now() });
        } else {
          throw new Error(String(response.status));
        }
      } catch {
        if (controller.signal.aborted) return;
        failures++;
        next = Math.min(POLL_MS * 2 ** failures, 60_000);
        setPoll((p) => ({ ...p, failed: true, now: Date.now() }));
      } finally {
        inFlight = false;
      }
      schedule(next);
    }
    pollNow.current = () => void run();
    const onVisible = () => {
      if (!document.hidden) void run();
    };
    document.addEventListener('visibilitychange', onVisible);
    window.addEventListener('focus', onVisible);
    window.addEventListener('online', onVisible);
    // The server read the stay a moment ago; without it, ask now.
    schedule(initial ? (activating.current ? POLL_WHILE_ACTIVATING_MS : POLL_MS) : 0);
    return () => {
      stopped = true;
      clearTimeout(timer);
      controller.abort();
      document.removeEventListener('visibilitychange', onVisible);
      window.removeEventListener('focus', onVisible);
      window.removeEventListener('online', onVisible);
    };
    // `initial` is the first render's value only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token]);

  const boundary = nextBoundary(poll.status, poll.now);
  useEffect(() => {
    if (boundary === null) return;
    const timer = setTimeout(
      () => setPoll((p) => ({ ...p, now: Date.now() })),
      Math.min(boundary - Date.now() + 50, 2_000_000_000),
    );
    return () => clearTimeout(timer);
  }, [boundary]);

  return { ...poll, pollNow: useCallback(() => pollNow.current(), []) };
}

/** An instant as `When` (components/time.tsx) writes it, with the platform's Intl: the same text and element. */
function Instant({ at, locale, timeZone }: { at: string; locale: string; timeZone: string }) {
  return <time dateTime={new Date(at).toISOString()}>{formatDateTime(at, 'stamp', { locale, timeZone })}</time>;
}

const TONE: Record<View['kind'], string> = {
  loading: 'info',
  activating: 'info',
  scheduled: 'info',
  ready: 'success',
  failed: 'danger',
  revoked: 'danger',
  expired: 'neutral',
  notFound: 'danger',
  notReady: 'info',
  error: 'danger',
  thanks: 'neutral',
  cancelled: 'neutral',
  checkInClosed: 'info',
  checkInOpen: 'info',
};

/** What the server-rendered part of the page shows of the stay: when it differs, that part is rendered again. */
function staySignature(status: GuestStatus, now: number): string {
  const { roomLabel, startsAt, endsAt, status: stayStatus } = status.stay;
  // The stay's status too: a check-in (from this phone or another) renders what is still to do again.
  return [roomLabel, startsAt, endsAt, stayStatus, guestPhaseOf(guestViewOf(status, now))].join('|');
}

/** Copies the PIN, and says so where a screen reader hears it. */
function CopyPin({ pin, words }: { pin: string; words: GuestKeyWords }) {
  const [result, setResult] = useState<'copied' | 'failed' | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = () => {
    const done = (outcome: 'copied' | 'failed') => {
      setResult(outcome);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setResult(null), 4000);
    };
    if (!navigator.clipboard) return done('failed');
    navigator.clipboard.writeText(pin).then(
      () => done('copied'),
      () => done('failed'),
    );
  };
  return (
    <div className="guest-copy">
      <Button onClick={copy} data-testid="guest-copy-pin">
        {words.copyPin}
      </Button>
      <span role="status" className="guest-copy__result" data-testid="guest-copy-result">
        {result === 'copied' ? words.copied : result === 'failed' ? words.copyFailed : ''}
      </span>
    </div>
  );
}

/**
 * The guest's door key, kept true while the page is open (useGuestStatus). The PIN is shown only
 * while it opens the door or will (`guestViewOf`): once the key ends, the old PIN leaves the page
 * with the next answer, and a different PIN comes with a notice that it changed. A change to the
 * room, the dates or the stay itself renders the server's part of the page again.
 */
export function GuestKey({ token, timeZone, locale, words, initial, renderedAt }: Props) {
  const router = useRouter();
  const poll = useGuestStatus(token, initial, renderedAt);
  const [refreshing, setRefreshing] = useState(false);

  const view: View = poll.gone
    ? { kind: 'notFound' }
    : poll.status
      ? guestViewOf(poll.status, poll.now)
      : { kind: poll.failed ? 'error' : 'loading' };
  const pin = view.kind === 'ready' || view.kind === 'scheduled' ? shownPin(view) : null;

  // The PIN last shown on this page outlives states without one (activating), so a new PIN after
  // a check-in, a move or a re-issue is announced as a change.
  const [lastPin, setLastPin] = useState<string | null>(pin);
  const [changed, setChanged] = useState(false);
  if (pin !== null && pin !== lastPin) {
    if (lastPin !== null) setChanged(true);
    setLastPin(pin);
  }

  // The server rendered the room, the dates and the page itself (key page, thank-you, cancelled)
  // for what it read; when the stay changed, it renders them again (this component keeps its state).
  const rendered = useRef(initial ? staySignature(initial, renderedAt) : null);
  const signature = poll.status ? staySignature(poll.status, poll.now) : null;
  useEffect(() => {
    if (signature === null || signature === rendered.current) return;
    rendered.current = signature;
    router.refresh();
  }, [signature, router]);

  const refresh = () => {
    if (refreshing) return;
    setRefreshing(true);
    // The key endpoint issues a checked-in stay's key when it is missing; the poll then reads it.
    void fetch(`/api/guest/${encodeURIComponent(token)}/key`, { method: 'POST', cache: 'no-store' })
      .catch(() => null)
      .finally(() => {
        setRefreshing(false);
        poll.pollNow();
      });
  };

  const busy = view.kind === 'loading' || view.kind === 'activating';
  const at = (instant: string) => formatDateTime(instant, 'stamp', { locale, timeZone });
  const statusText =
    view.kind === 'scheduled'
      ? fill(words.worksFromStatus, { time: at(view.key.validFrom) })
      : view.kind === 'checkInClosed'
        ? fill(words.selfService.checkInOpensStatus, { time: at(view.opensAt) })
        : words.status[view.kind];
  const checkingIn = view.kind === 'checkInClosed' || view.kind === 'checkInOpen';
  // Early check-out: while the stay is checked in and its page is the live one.
  const checkedIn = poll.status?.stay.status === 'checked_in' && guestPhaseOf(view as GuestView) === 'live';
  // After an action the status line says what happened: focus goes there (it is announced as well).
  const statusLine = useRef<HTMLDivElement>(null);
  const afterCheckIn = () => {
    statusLine.current?.focus();
    poll.pollNow();
  };
  const key = view.kind === 'ready' || view.kind === 'scheduled' ? view.key : null;
  // New stay dates on their way to the lock, or refused by it: the PIN is the same, its end may not be.
  const lockWindow = key ? (poll.status?.lockWindow ?? null) : null;

  return (
    <div className="guest-key" aria-busy={busy || undefined}>
      {changed && (
        <div className="guest-changed" role="alert" data-testid="guest-pin-changed">
          <p className="guest-changed__title">{words.pinChanged}</p>
          <p className="guest-changed__hint">{pin ? words.pinChangedHint : words.pinGone}</p>
          <Button size="compact" onClick={() => setChanged(false)}>
            {words.dismiss}
          </Button>
        </div>
      )}

      <div
        ref={statusLine}
        tabIndex={-1}
        role="status"
        aria-live="polite"
        aria-atomic="true"
        className={`guest-status guest-status--${TONE[view.kind]}`}
        data-testid="guest-key-status"
        data-state={view.kind}
      >
        {busy && <span className="spinner" aria-hidden="true" />}
        <span className="guest-status__text">{statusText}</span>
      </div>

      {view.kind === 'loading' && <div className="skeleton guest-pin-skeleton" aria-hidden="true" />}
      {view.kind === 'activating' && <p className="guest-hint">{words.activatingHint}</p>}
      {view.kind === 'notReady' && <p className="guest-hint">{words.notReadyHint}</p>}
      {checkingIn && <p className="guest-hint">{words.selfService.checkInHint}</p>}
      {view.kind === 'checkInOpen' && <CheckInButton token={token} words={words.selfService} onDone={afterCheckIn} />}

      {key && pin && (
        <div className="guest-pin-block">
          <p className="guest-pin-block__label" id="guest-pin-label">
            {words.pinLabel}
          </p>
          <p
            className="guest-pin"
            data-testid="guest-pin"
            role="img"
            aria-label={fill(words.pinAria, { digits: pin.split('').join(' ') })}
          >
            {pin.split('').map((digit, index) => (
              <span key={index} className="guest-pin__digit">
                {digit}
              </span>
            ))}
          </p>
          <CopyPin pin={pin} words={words} />
          <p className="guest-hint">{words.howTo}</p>
          {lockWindow && (
            <p
              className={lockWindow === 'failed' ? 'guest-note' : 'guest-hint'}
              role={lockWindow === 'failed' ? 'alert' : undefined}
              data-testid="guest-lock-window"
              data-state={lockWindow}
            >
              {words.lockWindow[lockWindow]}
            </p>
          )}
          {key.kind === 'backup' && (
            <p className="guest-hint" data-testid="guest-backup-note">
              {words.backupNote}
            </p>
          )}
          <dl className="guest-facts">
            <div>
              <dt>{words.validFrom}</dt>
              <dd>
                <Instant at={key.validFrom} locale={locale} timeZone={timeZone} />
              </dd>
            </div>
            <div>
              <dt>{words.validUntil}</dt>
              <dd>
                <Instant at={key.expiresAt} locale={locale} timeZone={timeZone} />
              </dd>
            </div>
          </dl>
        </div>
      )}

      {view.kind !== 'notFound' && view.kind !== 'thanks' && view.kind !== 'cancelled' && !checkingIn && (
        <Button size="large" block onClick={refresh} disabled={refreshing}>
          {refreshing ? words.refreshing : words.refresh}
        </Button>
      )}

      {checkedIn && <CheckOut token={token} words={words.selfService} onDone={() => router.refresh()} />}
    </div>
  );
}
