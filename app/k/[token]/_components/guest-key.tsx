'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { formatDateTime } from '@/lib/i18n/formats';
import { fill } from '@/lib/i18n/slots';
import type { GuestKeyWords } from './guest-key-words';

type Props = {
  token: string;
  /** The facility's IANA time zone: every time on the page is shown in it. */
  timeZone: string;
  /** The formatting tag of the guest's language (`intlLocale`: en-GB, ja-JP). */
  locale: string;
  /** Its words, translated by the page (guest-key-words.ts): no i18n runtime on the phone. */
  words: GuestKeyWords;
  /** The key as the server read it while rendering, so the PIN is in the first HTML (no wait for a fetch). */
  initialKey?: GuestKeyData | null;
};

/** `POST /api/guest/{token}/key` → `data` (API.md, "Guest"): `pin` is null once the key has ended or the lock refused it. */
export type GuestKeyData = {
  id: string;
  /** `backup`: a code from the lock's pool standing in for the stay's own (docs/LOCKS.md). */
  kind?: 'guest' | 'staff' | 'backup';
  status: 'pre_issued' | 'active' | 'revoked' | 'expired';
  pin: string | null;
  validFrom: string;
  expiresAt: string;
  vendorSync: 'pending' | 'synced' | 'failed';
  revokedReason: string | null;
  roomLabel: string;
};

/** A non-2xx answer of the key endpoint, with what the retry policy needs. */
class GuestKeyError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    readonly retryAfterSeconds: number | null,
  ) {
    super(`guest key request failed with ${status}${code ? ` (${code})` : ''}`);
    this.name = 'GuestKeyError';
  }
}

const POLL_WHILE_ACTIVATING_MS = 2_000;
const POLL_WHILE_NOT_READY_MS = 30_000;
const MAX_RATE_LIMIT_RETRIES = 5;

function isLive(status: GuestKeyData['status']): boolean {
  return status === 'pre_issued' || status === 'active';
}

function isGuestKeyData(value: unknown): value is GuestKeyData {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.id === 'string' &&
    (typeof v.pin === 'string' || v.pin === null) &&
    typeof v.validFrom === 'string' &&
    typeof v.expiresAt === 'string' &&
    ['pre_issued', 'active', 'revoked', 'expired'].includes(v.status as string) &&
    ['pending', 'synced', 'failed'].includes(v.vendorSync as string)
  );
}

async function fetchGuestKey(token: string, signal: AbortSignal): Promise<GuestKeyData> {
  const response = await fetch(`/api/guest/${encodeURIComponent(token)}/key`, {
    method: 'POST',
    cache: 'no-store',
    headers: { accept: 'application/json' },
    signal,
  });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const error = (body as { error?: { code?: unknown } } | null)?.error;
    const retryAfter = Number(response.headers.get('retry-after'));
    throw new GuestKeyError(
      response.status,
      typeof error?.code === 'string' ? error.code : null,
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
    );
  }
  const data = (body as { data?: unknown } | null)?.data;
  if (!isGuestKeyData(data)) throw new GuestKeyError(response.status, 'invalid_response', null);
  return data;
}

type View =
  | { kind: 'loading' }
  | { kind: 'activating' | 'ready' | 'failed' | 'revoked' | 'expired'; key: GuestKeyData }
  | { kind: 'notFound' | 'notReady' | 'error'; key?: GuestKeyData };

/** What to show; `fetchedAt` is when the key was read, so a key past its end reads as expired. */
function viewOf(data: GuestKeyData | undefined, error: Error | null, fetchedAt: number): View {
  // A link that stopped working wins over a key fetched earlier: the guest must not keep a stale PIN.
  if (error instanceof GuestKeyError && error.status === 404) return { kind: 'notFound' };
  if (!data) {
    if (!error) return { kind: 'loading' };
    if (error instanceof GuestKeyError && error.status === 409) return { kind: 'notReady' };
    return { kind: 'error' };
  }
  if (data.status === 'revoked') return { kind: 'revoked', key: data };
  // The expiry sweep runs periodically; past its end a key no longer opens the door anyway.
  if (data.status === 'expired' || Date.parse(data.expiresAt) <= fetchedAt) return { kind: 'expired', key: data };
  // A PIN that cannot open the door (the lock refused it, or none was sent) is never shown as ready.
  if (data.vendorSync === 'failed' || data.pin === null) return { kind: 'failed', key: data };
  if (data.vendorSync === 'pending') return { kind: 'activating', key: data };
  return { kind: 'ready', key: data };
}

const TONE: Record<View['kind'], string> = {
  loading: 'info',
  activating: 'info',
  ready: 'success',
  failed: 'danger',
  revoked: 'danger',
  expired: 'neutral',
  notFound: 'danger',
  notReady: 'info',
  error: 'danger',
};

/** How long to wait before polling again after an answer, or null to stop (until focus, reconnect or a tap). */
function pollDelay(data: GuestKeyData | undefined, error: Error | null): number | null {
  if (error instanceof GuestKeyError && error.status === 404) return null;
  if (!data && error instanceof GuestKeyError && error.status === 409) return POLL_WHILE_NOT_READY_MS;
  return data && isLive(data.status) && data.vendorSync === 'pending' ? POLL_WHILE_ACTIVATING_MS : null;
}

/** After the n-th failure in a row: how long to wait before retrying, or null to give up. */
function retryDelay(failures: number, error: unknown): number | null {
  if (error instanceof GuestKeyError) {
    if (error.status === 429) {
      return failures <= MAX_RATE_LIMIT_RETRIES
        ? Math.min(Math.max((error.retryAfterSeconds ?? 2) * 1000, 1000), 60_000)
        : null;
    }
    if (error.status >= 400 && error.status < 500) return null;
  }
  return failures <= 3 ? Math.min(1000 * 2 ** failures, 10_000) : null;
}

type KeyState = { data: GuestKeyData | undefined; error: Error | null; updatedAt: number; fetching: boolean };

/**
 * The key, polled while the lock is being programmed and refreshed when the page becomes visible
 * again or the phone reconnects. A dozen lines of state instead of a query library: this is the
 * page a guest opens on a phone, and every kilobyte of script delays it (docs/PERFORMANCE.md).
 * A second refresh while one is in flight joins it.
 */
function useGuestKey(token: string, initialKey: GuestKeyData | null | undefined) {
  const [state, setState] = useState<KeyState>(() => ({
    data: initialKey ?? undefined,
    error: null,
    updatedAt: Date.now(),
    fetching: !initialKey,
  }));
  const inFlight = useRef<Promise<void> | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const controller = useRef<AbortController | null>(null);
  const latest = useRef(state);
  latest.current = state;

  const load = useCallback((): Promise<void> => {
    if (inFlight.current) return inFlight.current;
    clearTimeout(timer.current);
    setState((s) => ({ ...s, fetching: true }));
    const run = async () => {
      for (let failures = 1; ; failures++) {
        const abort = new AbortController();
        controller.current = abort;
        try {
          const data = await fetchGuestKey(token, abort.signal);
          setState({ data, error: null, updatedAt: Date.now(), fetching: false });
          return { data, error: null };
        } catch (error) {
          if (abort.signal.aborted) return null;
          const wait = retryDelay(failures, error);
          if (wait === null) {
            setState((s) => ({ ...s, error: error as Error, fetching: false }));
            return { data: latest.current.data, error: error as Error };
          }
          await new Promise((resolve) => setTimeout(resolve, wait));
          if (abort.signal.aborted) return null;
        }
      }
    };
    const done = run().then((outcome) => {
      inFlight.current = null;
      if (!outcome) return;
      const delay = pollDelay(outcome.data, outcome.error);
      if (delay !== null) timer.current = setTimeout(() => void (document.hidden ? undefined : load()), delay);
    });
    inFlight.current = done;
    return done;
  }, [token]);

  useEffect(() => {
    // The server rendered the key a moment ago: fetch only when it could not, or to keep polling.
    if (!initialKey) void load();
    else {
      const delay = pollDelay(initialKey, null);
      if (delay !== null) timer.current = setTimeout(() => void load(), delay);
    }
    const onVisible = () => {
      if (!document.hidden) void load();
    };
    const onOnline = () => void load();
    document.addEventListener('visibilitychange', onVisible);
    window.addEventListener('online', onOnline);
    return () => {
      document.removeEventListener('visibilitychange', onVisible);
      window.removeEventListener('online', onOnline);
      clearTimeout(timer.current);
      controller.current?.abort();
      inFlight.current = null;
    };
    // initialKey is the first render's value only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [load]);

  return { ...state, refetch: load };
}

/** An instant as `When` (components/time.tsx) writes it, with the platform's Intl: the same text and element. */
function Instant({ at, locale, timeZone }: { at: string; locale: string; timeZone: string }) {
  return <time dateTime={new Date(at).toISOString()}>{formatDateTime(at, 'stamp', { locale, timeZone })}</time>;
}

/**
 * The guest's door key, fetched from the key endpoint and polled every two seconds while the lock
 * is being programmed. The PIN is shown only once the lock has confirmed it (vendor sync `synced`).
 */
export function GuestKey({ token, timeZone, locale, words, initialKey }: Props) {
  const [manualRefresh, setManualRefresh] = useState(false);
  const query = useGuestKey(token, initialKey);

  const view = viewOf(query.data, query.error, query.updatedAt);
  const busy = view.kind === 'loading' || view.kind === 'activating';
  const key = view.kind === 'ready' && view.key.pin !== null ? { ...view.key, pin: view.key.pin } : null;

  const refresh = () => {
    if (query.fetching) return;
    setManualRefresh(true);
    void query.refetch().finally(() => setManualRefresh(false));
  };

  return (
    <div className="guest-key" aria-busy={busy || undefined}>
      <div
        role="status"
        aria-live="polite"
        aria-atomic="true"
        className={`guest-status guest-status--${TONE[view.kind]}`}
        data-testid="guest-key-status"
        data-state={view.kind}
      >
        {busy && <span className="spinner" aria-hidden="true" />}
        <span className="guest-status__text">{words.status[view.kind]}</span>
      </div>

      {view.kind === 'loading' && <div className="skeleton guest-pin-skeleton" aria-hidden="true" />}
      {view.kind === 'activating' && <p className="guest-hint">{words.activatingHint}</p>}
      {view.kind === 'notReady' && <p className="guest-hint">{words.notReadyHint}</p>}

      {key && (
        <div className="guest-pin-block">
          <p className="guest-pin-block__label" id="guest-pin-label">
            {words.pinLabel}
          </p>
          <p
            className="guest-pin"
            data-testid="guest-pin"
            role="img"
            aria-label={fill(words.pinAria, { digits: key.pin.split('').join(' ') })}
          >
            {key.pin.split('').map((digit, index) => (
              <span key={index} className="guest-pin__digit">
                {digit}
              </span>
            ))}
          </p>
          <p className="guest-hint">{words.howTo}</p>
          {key.kind === 'backup' && (
            <p className="guest-hint" data-testid="guest-backup-note">
              {words.backupNote}
            </p>
          )}
          {key.status === 'pre_issued' && (
            <p className="guest-note">
              {fill(words.worksFrom, { time: formatDateTime(key.validFrom, 'stamp', { locale, timeZone }) })}
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

      {view.kind !== 'notFound' && (
        <Button size="large" block onClick={refresh} disabled={query.fetching}>
          {manualRefresh ? words.refreshing : words.refresh}
        </Button>
      )}
    </div>
  );
}
