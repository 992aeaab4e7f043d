import Link from 'next/link';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Notice } from '@/components/ui/notice';
import { Span, When } from '@/components/time';
import type { Translate } from '@/lib/i18n/locale';
import type { LockCodeView, LockDetailView } from '@/lib/locks/locks';
import { providerProblem } from './provider-problem';
import styles from './locks.module.css';

const isOneOf = <T extends string>(list: readonly T[], value: string): value is T =>
  (list as readonly string[]).includes(value);

const KEY_TONE: Record<LockCodeView['keyStatus'], BadgeTone> = {
  pre_issued: 'info',
  active: 'success',
  revoked: 'neutral',
  expired: 'neutral',
};

const DOOR_STATES = [
  'pending',
  'setting',
  'set',
  'failed',
  'removing',
  'removed',
  'remove_failed',
  'valid_until_end',
] as const;
const DOOR_TONE: Record<(typeof DOOR_STATES)[number], BadgeTone> = {
  pending: 'info',
  setting: 'info',
  set: 'success',
  failed: 'danger',
  removing: 'warning',
  removed: 'neutral',
  remove_failed: 'danger',
  valid_until_end: 'warning',
};

const CODE_STATES = ['setting', 'set', 'removing', 'absent', 'failed'] as const;
const CODE_TONE: Record<(typeof CODE_STATES)[number], BadgeTone> = {
  setting: 'info',
  set: 'success',
  removing: 'warning',
  absent: 'neutral',
  failed: 'danger',
};

// What reconciliation writes on a door it healed; anything else is the provider's own error code.
const CODE_ERRORS = ['missing_on_lock', 'still_on_lock'] as const;

type Common = { t: Translate; zone: string; headingId: string };

/** "Codes we expect on this lock": each key's code on this door by our records — whose, when, and where it stands. Never a PIN. */
export function ExpectedCodes({ codes, t, zone, headingId }: Common & { codes: LockCodeView[] }) {
  return (
    <section className={styles.part} aria-labelledby={headingId} data-testid="lock-ours">
      <h3 id={headingId}>{t('locks.ours.title')}</h3>
      {codes.length === 0 ? (
        <p className="muted">{t('locks.ours.empty')}</p>
      ) : (
        <ul className={styles.codeList}>
          {codes.map((code) => (
            <li key={code.keyId} data-testid="lock-code" data-key-id={code.keyId} data-state={code.state}>
              <span>
                <Link href={`/desk/reservations/${code.reservationId}`}>
                  {code.guestDisplay ?? t('guest.deletedAccount')}
                </Link>
                {' · '}
                {t('locks.ours.room', { room: code.roomLabel })}
              </span>
              <span className="badge-row">
                {code.kind !== 'guest' && <Badge>{t(`locks.codeKind.${code.kind}`)}</Badge>}
                <Badge tone={KEY_TONE[code.keyStatus]} data-testid="lock-code-key-status">
                  {t(`key.status.${code.keyStatus}`)}
                </Badge>
                <DoorState state={code.state} expiresAt={code.expiresAt} t={t} zone={zone} />
              </span>
              <span className="small muted">
                <Span from={code.validFrom} to={code.expiresAt} zone={zone} />
              </span>
              {code.error && (
                <span className="small muted">
                  {isOneOf(CODE_ERRORS, code.error)
                    ? t(`locks.codeError.${code.error}`)
                    : t('locks.ours.providerError', { error: code.error })}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Where a key's code stands on this door, in words: "Set on lock", "Being removed", "Offline code — … until <end>". */
function DoorState({ state, expiresAt, t, zone }: { state: string; expiresAt: string; t: Translate; zone: string }) {
  if (!isOneOf(DOOR_STATES, state)) return <Badge data-testid="lock-code-state">{state}</Badge>;
  return (
    <Badge tone={DOOR_TONE[state]} data-testid="lock-code-state">
      {state === 'valid_until_end'
        ? t.rich('locks.doorState.valid_until_end', { end: () => <When at={expiresAt} zone={zone} /> })
        : t(`locks.doorState.${state}`)}
    </Badge>
  );
}

/**
 * "Codes the provider reports": the provider's list at the last reconciliation, codes UnlockOS did
 * not make flagged; "Not checked yet" before the first, and why the last check failed if it did.
 */
export function ReportedCodes({ lock, t, zone, headingId }: Common & { lock: LockDetailView }) {
  const ours = new Map(lock.ours.map((code) => [code.keyId, code]));
  return (
    <section className={styles.part} aria-labelledby={headingId} data-testid="lock-theirs">
      <h3 id={headingId}>{t('locks.theirs.title')}</h3>
      {lock.reconciledAt && (
        <p className="small muted" data-testid="lock-reconciled-at">
          {t.rich('locks.theirs.asOf', { when: () => <When at={lock.reconciledAt!} zone={zone} /> })}
        </p>
      )}
      {lock.reconcileError && (
        <Notice tone="warning" variant="inline" announce={false} data-testid="lock-reconcile-error">
          {t('locks.theirs.lastCheckFailed', {
            reason: t(`locks.providerProblem.${providerProblem(lock.reconcileError)}`, { code: lock.reconcileError }),
          })}
        </Notice>
      )}
      {lock.theirs === null ? (
        <p className="muted" data-testid="lock-theirs-unchecked">
          {t('locks.theirs.notChecked')}
        </p>
      ) : lock.theirs.length === 0 ? (
        <p className="muted" data-testid="lock-theirs-empty">
          {t('locks.theirs.empty')}
        </p>
      ) : (
        <ul className={styles.codeList}>
          {lock.theirs.map((code) => {
            const mine = code.clientRef ? ours.get(code.clientRef) : undefined;
            return (
              <li key={code.codeId} data-testid="lock-provider-code" data-ours={String(code.ours)}>
                <code>{t('locks.theirs.code', { id: code.codeId })}</code>
                <span className="badge-row">
                  {isOneOf(CODE_STATES, code.state) ? (
                    <Badge tone={CODE_TONE[code.state]}>{t(`locks.codeState.${code.state}`)}</Badge>
                  ) : (
                    <Badge>{code.state}</Badge>
                  )}
                  {code.ours ? (
                    <Badge tone="success">{t('locks.theirs.ours')}</Badge>
                  ) : (
                    <Badge tone="warning" data-testid="lock-provider-code-foreign">
                      {t('locks.theirs.notOurs')}
                    </Badge>
                  )}
                </span>
                {mine && (
                  <span className="small muted">
                    {t('locks.theirs.for', {
                      guest: mine.guestDisplay ?? t('guest.deletedAccount'),
                      room: mine.roomLabel,
                    })}
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
