'use client';

import { useFormatter, useTranslations } from 'next-intl';
import { createContext, use, useActionState, useEffect, useRef, useState, type ReactNode } from 'react';
import { completeCheckInAction, type CheckInState } from '@/app/desk/actions';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import type { OfflineCodeStillValid } from '@/lib/keys/offline-codes-still-valid';

type Context = {
  action: (formData: FormData) => void;
  pending: boolean;
  target: string | null;
  setTarget: (reservationId: string) => void;
};

const CheckInContext = createContext<Context | null>(null);

type ProviderProps = {
  /** Room label of every reservation a button on the page can check in, for the result panel. */
  roomLabels: Record<string, string>;
  /**
   * The page's ended keys that still open a lock. Read by the page, so after a check-in (which
   * revalidates it) the panel learns which of the keys it superseded were offline codes.
   */
  offlineCodes?: OfflineCodeStillValid[];
  /**
   * The page's live keys, read by the page: after a room move, a re-issue or a revocation (each
   * revalidates it) the panel no longer shows a PIN that stopped opening the door.
   */
  liveKeyIds: string[];
  children: ReactNode;
};

/**
 * Holds the outcome of the last "Complete check-in" on the page and shows it above `children`.
 * The state lives here, not in the row's button, because a checked-in row moves to another
 * section (and its button disappears) when the page revalidates.
 */
export function CheckInProvider({ roomLabels, offlineCodes = [], liveKeyIds, children }: ProviderProps) {
  const t = useTranslations('checkIn');
  const format = useFormatter();
  const [state, action, pending] = useActionState(completeCheckInAction, null);
  const [target, setTarget] = useState<string | null>(null);
  const [dismissed, setDismissed] = useState<CheckInState>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const visible = state !== null && state !== dismissed;

  // The button that was pressed is gone after a successful check-in: move focus to the outcome (a refusal too).
  useEffect(() => {
    if (state) panelRef.current?.focus();
  }, [state]);

  const reservationId = state ? (state.ok ? state.data.reservationId : state.values.reservationId) : undefined;
  const room = reservationId ? roomLabels[reservationId] : undefined;
  // The desk never shows a PIN that is not live: the key given at check-in may have been replaced since.
  const pinLive = state?.ok === true && liveKeyIds.includes(state.data.keyId);
  // A superseded pre-issued key that was an offline code was revoked here but not on its lock.
  const stillOpen = state?.ok ? offlineCodes.filter((c) => state.data.revokedKeyIds.includes(c.keyId)) : [];

  return (
    <CheckInContext value={{ action, pending, target, setTarget }}>
      <div aria-live="polite" className="result-slot">
        {visible && (
          <div
            ref={panelRef}
            tabIndex={-1}
            className={`result-panel ${state.ok ? 'result-panel--success' : 'result-panel--danger'}`}
            data-testid="checkin-result"
            aria-labelledby="checkin-result-title"
          >
            <div className="result-panel__body">
              <p id="checkin-result-title" className="result-panel__title">
                {state.ok ? t('resultTitle') : state.error.message}
                {room !== undefined && <span className="result-panel__room"> · {t('room', { room })}</span>}
              </p>
              {state.ok && (
                <>
                  {state.data.pin !== null && pinLive && (
                    <p className="result-panel__pin" data-testid="checkin-result-pin-line">
                      {t('newPin')}{' '}
                      <strong className="pin-inline" data-testid="checkin-new-pin">
                        {state.data.pin}
                      </strong>
                    </p>
                  )}
                  {state.data.pin !== null && !pinLive && (
                    <p className="result-panel__line" data-testid="checkin-pin-replaced">
                      {t('pinNoLongerLive')}
                    </p>
                  )}
                  <p className="result-panel__line" data-testid="checkin-revoked">
                    {state.data.revokedCount > 0 ? t('revoked', { count: state.data.revokedCount }) : t('noneRevoked')}
                  </p>
                  {stillOpen.map((code) => (
                    <Notice key={code.keyId} tone="warning" announce={false} data-testid="checkin-offline-code">
                      {t('offlineStillValid', {
                        issued: format.dateTime(code.issuedAt, 'stamp', { timeZone: code.timeZone }),
                        lock: format.list(code.locks),
                        end: format.dateTime(code.until, 'stamp', { timeZone: code.timeZone }),
                      })}
                    </Notice>
                  ))}
                  {pinLive && <p className="result-panel__line muted">{t('handOver')}</p>}
                </>
              )}
            </div>
            <Button variant="ghost" size="compact" onClick={() => setDismissed(state)}>
              {t('dismiss')}
            </Button>
          </div>
        )}
      </div>
      {children}
    </CheckInContext>
  );
}

type ButtonProps = {
  reservationId: string;
  /** Id of the element naming the reservation (its room), read as the button's description. */
  describedBy?: string;
  /** Before the check-in opens: "Check in early" (offered only while the room is free; audited). */
  early?: boolean;
  /** Whose check-in it is ("Room 102 · Kenji Sato"), added to the button's name where many buttons share a page. */
  subject?: string;
  /** Why the new PIN may not reach the door: shown, and checking in asks to confirm ("Check in anyway"). */
  warning?: string;
};

/** "Complete check-in" (or "Check in early") for one reservation; the outcome shows in the surrounding CheckInProvider. */
export function CheckInButton({ reservationId, describedBy, early = false, subject, warning }: ButtonProps) {
  const t = useTranslations('checkIn');
  const context = use(CheckInContext);
  if (!context) throw new Error('CheckInButton must be rendered inside CheckInProvider');
  const { action, pending, target, setTarget } = context;
  const text = pending && target === reservationId ? t('pending') : early ? t('early') : t('submit');
  return (
    <form action={action} onSubmit={() => setTarget(reservationId)} className="inline-action">
      <input type="hidden" name="reservationId" value={reservationId} />
      {early && <input type="hidden" name="early" value="1" />}
      {warning && (
        <span className="check-in-warning" data-testid="check-in-lock-warning">
          <Notice tone="warning" variant="inline" announce={false}>
            {warning}
          </Notice>
          <label className="check-in-warning__confirm">
            <input type="checkbox" name="lockProblemConfirmed" value="1" required data-testid="check-in-confirm" />{' '}
            {t('confirmAnyway')}
          </label>
        </span>
      )}
      <Button
        type="submit"
        variant={early ? 'secondary' : 'primary'}
        size="compact"
        disabled={pending}
        aria-describedby={describedBy}
        aria-label={subject ? `${text} · ${subject}` : undefined}
      >
        {text}
      </Button>
    </form>
  );
}
