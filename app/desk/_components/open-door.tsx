'use client';

import { useQuery } from '@tanstack/react-query';
import { useFormatter, useTranslations } from 'next-intl';
import { useActionState, useEffect, useId, useRef } from 'react';
import { remoteUnlockAction, type RemoteUnlockOutcome } from '@/app/desk/door-actions';
import { DoorErrorText } from '@/app/desk/_components/door-error';
import { QueryProvider } from '@/components/query-provider';
import { Button } from '@/components/ui/button';
import { Field, Input } from '@/components/ui/field';
import { FormError, Notice } from '@/components/ui/notice';
import type { RemoteUnlockView } from '@/lib/locks/remote-unlock-state';
import styles from './room-doors.module.css';

/** How often a pending remote unlock is asked about, and for how long at most. */
const FOLLOW_MS = 3_000;
const FOLLOW_FOR_MS = 5 * 60_000;

type Props = {
  lockId: string;
  /** The lock's name ("Room 101 door"): the button, the dialog and the outcome name it. */
  door: string;
  room: string;
  /** The facility's IANA zone: the outcome's time is written in it. */
  timeZone: string;
};

/**
 * "Open door": a confirm step in a modal dialog that asks for the reason (required), then the lock's answer beside
 * the button — opened at a time, sent but not yet confirmed (followed until the provider or the door's entry settles
 * it), or refused in the provider's words. A refusal of the request itself (the lock cannot be opened remotely, too
 * many just now) is said there too; a missing or too long reason keeps the dialog open at its field.
 */
export function OpenDoor(props: Props) {
  return (
    <QueryProvider>
      <OpenDoorForm {...props} />
    </QueryProvider>
  );
}

function OpenDoorForm({ lockId, door, room, timeZone }: Props) {
  const t = useTranslations('doors.open');
  const [state, action, pending] = useActionState(remoteUnlockAction, null);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const outcomeRef = useRef<HTMLDivElement>(null);
  const id = useId();
  const reasonError = state && !state.ok && state.error.field === 'reason' ? state : null;

  // An answer closes the dialog and takes the focus to what happened; a reason to fix keeps it open.
  useEffect(() => {
    if (!state || reasonError) return;
    dialogRef.current?.close();
    outcomeRef.current?.focus();
  }, [state, reasonError]);

  return (
    <div>
      <Button
        variant="secondary"
        size="compact"
        aria-label={t('buttonNamed', { door })}
        aria-haspopup="dialog"
        onClick={() => dialogRef.current?.showModal()}
        data-testid="open-door"
      >
        {t('button')}
      </Button>
      <div ref={outcomeRef} tabIndex={-1} data-testid="open-door-outcome">
        {state?.ok && <Outcome key={state.attempt} outcome={state.data} door={door} timeZone={timeZone} />}
        {state && !state.ok && !reasonError && (
          <Notice tone="error" variant="inline" spaced data-status="refused">
            {state.error.message}
          </Notice>
        )}
      </div>
      <dialog ref={dialogRef} className={styles.dialog} aria-labelledby={`${id}-title`} data-testid="open-door-dialog">
        {/* noValidate: the server's message (translated, at the field) is the one the person reads. */}
        <form action={action} noValidate className="form">
          <input type="hidden" name="lockId" value={lockId} />
          <h2 id={`${id}-title`}>{t('title', { door })}</h2>
          <p id={`${id}-confirm`}>{t('confirm', { room })}</p>
          <Field id={`${id}-reason`} label={t('reason')} hint={t('reasonHint')} describedBy={`${id}-error`}>
            {(control) => (
              <Input
                {...control}
                name="reason"
                type="text"
                required
                maxLength={300}
                autoComplete="off"
                defaultValue={reasonError?.values.reason ?? ''}
                key={reasonError ? `error-${reasonError.attempt}` : `fresh-${state?.attempt ?? 0}`}
                aria-invalid={reasonError ? true : undefined}
              />
            )}
          </Field>
          <FormError id={`${id}-error`}>{reasonError?.error.message}</FormError>
          <div className={styles.buttons}>
            <Button type="submit" variant="danger" disabled={pending} aria-describedby={`${id}-confirm`}>
              {pending ? t('pending') : t('submit')}
            </Button>
            <Button type="button" variant="ghost" onClick={() => dialogRef.current?.close()} disabled={pending}>
              {t('cancel')}
            </Button>
          </div>
        </form>
      </dialog>
    </div>
  );
}

async function fetchUnlock(id: string, signal: AbortSignal): Promise<RemoteUnlockView> {
  const response = await fetch(`/desk/unlocks/${id}`, {
    signal,
    cache: 'no-store',
    headers: { accept: 'application/json' },
  });
  if (!response.ok) throw new Error(`unlock answered ${response.status}`);
  return ((await response.json()) as { data: RemoteUnlockView }).data;
}

/** The lock's answer in words; a pending one is asked about again until it settles (or five minutes pass). */
function Outcome({ outcome, door, timeZone }: { outcome: RemoteUnlockOutcome; door: string; timeZone: string }) {
  const t = useTranslations('doors.open');
  const format = useFormatter();
  const follow = outcome.status === 'pending' && outcome.id !== null;
  const followed = useQuery({
    queryKey: ['remote-unlock', outcome.id],
    queryFn: ({ signal }) => fetchUnlock(outcome.id!, signal),
    enabled: follow,
    refetchInterval: (q) =>
      q.state.data?.status === 'pending' || q.state.data === undefined
        ? Date.now() - Date.parse(outcome.at) < FOLLOW_FOR_MS
          ? FOLLOW_MS
          : false
        : false,
    retry: 1,
  });
  const now = followed.data;
  const status = now && now.status !== 'requested' ? now.status : outcome.status;
  const problem = now?.error ?? outcome.problem;
  const time = format.dateTime(new Date(outcome.at), 'time', { timeZone });
  if (status === 'done')
    return (
      <Notice tone="success" variant="inline" spaced data-status="done">
        {t('done', { door, time })}
      </Notice>
    );
  if (status === 'pending')
    return (
      <Notice tone="info" variant="inline" spaced data-status="pending">
        {t('waiting', { door, time })}
      </Notice>
    );
  return (
    <Notice tone="error" variant="inline" spaced data-status="failed">
      {t('failed', { door })} {problem && <DoorErrorText code={problem} zone={timeZone} />}
    </Notice>
  );
}
