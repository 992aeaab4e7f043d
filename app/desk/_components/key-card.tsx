import { useFormatter, useTranslations } from 'next-intl';
import { When } from '@/components/time';
import { isAuditReasonCode } from '@/lib/audit/audit-filters';
import type { ReservationDetail } from '@/lib/desk/reservation-detail';
import { DoorErrorText } from '@/app/desk/_components/door-error';
import { KeyBadges } from '@/app/desk/_components/key-badges';
import { KeyDoors, stillOpensUntilEnd } from '@/app/desk/_components/key-doors';
import { KeyPin } from '@/app/desk/_components/key-pin';
import { LockProblemPanel } from '@/app/desk/_components/lock-problem';
import { RevokeKeyForm } from '@/app/desk/_components/revoke-key';
import { ReissueKeyForm } from '@/app/desk/_components/reissue-key';
import styles from './key-card.module.css';

export type ReservationKey = ReservationDetail['accessKeys'][number];

/** Why a backup was issued: its audit row's reason (the door's error, or `code_<state>`) and when. */
export type BackupIssued = { reason: string | null; at: Date | string };

type Props = {
  accessKey: ReservationKey;
  /** For a backup: the key it stands in for (on the same reservation). */
  standsInFor?: ReservationKey;
  /** For a backup: its `key.backup_issued` audit row, when the timeline has it. */
  backupIssued?: BackupIssued;
  canReveal: boolean;
  canRevoke: boolean;
  /** Room and guest (or a staff code's label) naming the key's "Re-issue key"; without it, no re-issue. */
  reissueNames?: { room: string; holder: string };
  /** The facility's IANA zone: every time is shown in it. */
  zone: string;
  now: Date;
};

/**
 * The door a backup's key was waiting for, as its audit row would have named it: the first door
 * without its code, by its error or else its state. Used when the audit row is not at hand.
 */
function stuckDoorOf(key: ReservationKey): string | null {
  const door = key.doors.find((d) => d.state !== 'set');
  return door ? (door.error ?? `code_${door.state}`) : null;
}

/**
 * One key of a reservation at the desk: what it is (a backup or staff code says so, and a backup
 * which key it stands in for and why), its status, its PIN behind the audited reveal, its window,
 * where its code stands on each door, and "Revoke key" — warning beforehand when an offline code
 * will keep opening its lock.
 */
export function KeyCard({
  accessKey: key,
  standsInFor,
  backupIssued,
  canReveal,
  canRevoke,
  reissueNames,
  zone,
  now,
}: Props) {
  const t = useTranslations();
  const format = useFormatter();
  const live = key.status === 'pre_issued' || key.status === 'active';
  const stillOpens = key.doors.some((d) => stillOpensUntilEnd(d, key.expiresAt, now));
  const endedOnLock = !stillOpens && key.doors.some((d) => d.state === 'valid_until_end');
  const lockText = live
    ? t(`key.sync.${key.vendorSync}`)
    : stillOpens
      ? t('key.syncEnded.validUntilEnd')
      : endedOnLock
        ? t('key.door.endedOnLock')
        : t(`key.syncEnded.${key.vendorSync}`);
  // Revoking cannot take an offline code off its lock: the form says so before and after.
  const offlineUntil = key.doors.some((d) => d.offline) && key.expiresAt > now ? key.expiresAt : null;
  const backupWhy = standsInFor ? (backupIssued?.reason ?? stuckDoorOf(standsInFor)) : null;

  return (
    <li
      id={`key-${key.id}`}
      className="card"
      data-testid="key-card"
      data-key-id={key.id}
      data-key-status={key.status}
      data-key-kind={key.kind}
    >
      <div className={styles.head}>
        <KeyBadges status={key.status} vendorSync={key.vendorSync} vendorError={key.vendorError} kind={key.kind} />
      </div>
      {standsInFor && (
        <p className={styles.backup} data-testid="key-backup-for">
          {t.rich('key.backupFor', {
            issued: format.dateTime(standsInFor.createdAt, 'stamp', { timeZone: zone }),
            link: (chunks) => <a href={`#key-${standsInFor.id}`}>{chunks}</a>,
          })}
          {backupWhy !== null && (
            <>
              {' '}
              <DoorErrorText code={backupWhy} at={backupIssued?.at ?? key.createdAt} zone={zone} />
            </>
          )}
        </p>
      )}
      <dl className="facts">
        <div>
          <dt>{t('key.pin')}</dt>
          <dd>
            {live ? (
              <KeyPin keyId={key.id} canReveal={canReveal} />
            ) : (
              <span className="muted">{t('key.pinEnded')}</span>
            )}
          </dd>
        </div>
        <div>
          <dt>{t('key.lock')}</dt>
          <dd data-testid="key-lock-summary">{lockText}</dd>
        </div>
        <div>
          <dt>{t('key.issuedAt')}</dt>
          <dd>
            <When at={key.createdAt} zone={zone} />
          </dd>
        </div>
        <div>
          <dt>{t('key.validFrom')}</dt>
          <dd>
            <When at={key.validFrom} zone={zone} />
          </dd>
        </div>
        <div>
          <dt>{t('key.validUntil')}</dt>
          <dd>
            <When at={key.expiresAt} zone={zone} />
          </dd>
        </div>
        {key.revokedReason !== null && (
          <div>
            <dt>{t('key.revokedReason')}</dt>
            <dd className="wrap-anywhere" data-testid="key-revoked-reason">
              {isAuditReasonCode(key.revokedReason) ? t(`audit.reason.${key.revokedReason}`) : key.revokedReason}
            </dd>
          </div>
        )}
      </dl>
      <KeyDoors doors={key.doors} until={key.expiresAt} zone={zone} now={now} headingId={`key-${key.id}-doors`} />
      <LockProblemPanel accessKey={key} canAct={canRevoke} />
      {canRevoke && reissueNames && key.kind !== 'backup' && (
        <ReissueKeyForm keyId={key.id} live={live} room={reissueNames.room} holder={reissueNames.holder} />
      )}
      {canRevoke && <RevokeKeyForm keyId={key.id} live={live} offlineUntil={offlineUntil} timeZone={zone} />}
    </li>
  );
}
