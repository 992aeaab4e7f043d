import Link from 'next/link';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { cx } from '@/components/ui/cx';
import { OnlineBadge, offlineReasonText } from '@/components/lock-health';
import { When } from '@/components/time';
import type { Translate } from '@/lib/i18n/locale';
import type { LockDetailView } from '@/lib/locks/locks';
import { AddDoorForm } from './lock-door-add';
import { ExpectedCodes, ReportedCodes } from './lock-codes';
import { ResyncLockButton } from './lock-resync';
import styles from './locks.module.css';

/** Below this the battery reads as a warning (the provider's own low-battery event opens an incident). */
const LOW_BATTERY = 20;

const isOneOf = <T extends string>(list: readonly T[], value: string): value is T =>
  (list as readonly string[]).includes(value);

const EVENTS = [
  'code_set',
  'code_removed',
  'code_failed',
  'code_delayed',
  'device_connected',
  'device_disconnected',
  'low_battery',
  'tampered',
] as const;
const INCIDENT_KINDS = [
  'lock_offline',
  'lock_low_battery',
  'lock_tampered',
  'lock_drift',
  'lock_program_failed',
  'lock_remove_failed',
] as const;
const SEVERITIES = ['info', 'warning', 'critical'] as const;
const SEVERITY_TONE: Record<(typeof SEVERITIES)[number], BadgeTone> = {
  info: 'info',
  warning: 'warning',
  critical: 'danger',
};

type Props = {
  lock: LockDetailView;
  /** Every room of the tenant, for "Add this lock to a room". */
  rooms: { id: string; label: string }[];
  t: Translate;
  zone: string;
};

/** One lock: its doors and health, open incidents, the codes it should hold beside the provider's, and its actions. */
export function LockCard({ lock, rooms, t, zone }: Props) {
  const id = `lock-${lock.id}`;
  return (
    <article
      id={id}
      className={cx('card', styles.lock)}
      aria-labelledby={`${id}-name`}
      data-testid="lock-card"
      data-lock-id={lock.id}
      data-device-id={lock.deviceId}
    >
      <header className={styles.head}>
        <h2 id={`${id}-name`}>{lock.name}</h2>
        <OnlineBadge online={lock.online} t={t} />
      </header>
      {lock.offlineReason && (
        <p className="muted small" data-testid="lock-offline-reason">
          {t('locks.offlineBecause', { reason: offlineReasonText(lock.offlineReason, t) })}
        </p>
      )}
      <LockFacts lock={lock} t={t} zone={zone} />
      {lock.incidents.length > 0 && <LockIncidents lock={lock} t={t} zone={zone} headingId={`${id}-incidents`} />}
      <div className={styles.codes}>
        <ExpectedCodes codes={lock.ours} t={t} zone={zone} headingId={`${id}-ours`} />
        <ReportedCodes lock={lock} t={t} zone={zone} headingId={`${id}-theirs`} />
      </div>
      <footer className={styles.footer}>
        <ResyncLockButton lockId={lock.id} lockName={lock.name} />
        <AddDoorForm lockId={lock.id} rooms={rooms} doorOf={lock.rooms.map((room) => room.id)} />
      </footer>
    </article>
  );
}

/** Provider, device, the rooms it is a door of, battery, when it was last seen and its last event. */
function LockFacts({ lock, t, zone }: { lock: LockDetailView; t: Translate; zone: string }) {
  return (
    <dl className="facts">
      <div>
        <dt>{t('locks.fact.provider')}</dt>
        <dd>{t(`locks.provider.${lock.provider}`)}</dd>
      </div>
      <div>
        <dt>{t('locks.fact.deviceId')}</dt>
        <dd>
          <code className="wrap-anywhere">{lock.deviceId}</code>
        </dd>
      </div>
      <div>
        <dt>{t('locks.fact.doors')}</dt>
        <dd>
          {lock.rooms.length === 0 ? (
            <span className="muted">{t('locks.doors.none')}</span>
          ) : (
            <ul className={styles.plain}>
              {lock.rooms.map((room) => (
                <li key={room.id} data-testid="lock-door" data-role={room.role}>
                  {t('locks.door', { room: room.label, role: t(`locks.role.${room.role}`) })}
                </li>
              ))}
            </ul>
          )}
        </dd>
      </div>
      <div>
        <dt>{t('locks.fact.battery')}</dt>
        <dd data-testid="lock-battery">
          {lock.batteryLevel === null ? (
            <span className="muted">{t('locks.battery.unknown')}</span>
          ) : lock.batteryLevel < LOW_BATTERY ? (
            <Badge tone="warning">{t('locks.battery.low', { level: lock.batteryLevel })}</Badge>
          ) : (
            t('locks.battery.level', { level: lock.batteryLevel })
          )}
        </dd>
      </div>
      <div>
        <dt>{t('locks.fact.lastSeen')}</dt>
        <dd>
          {lock.lastSeenAt ? (
            <When at={lock.lastSeenAt} zone={zone} />
          ) : (
            <span className="muted">{t('locks.lastSeenNever')}</span>
          )}
        </dd>
      </div>
      <div>
        <dt>{t('locks.fact.lastEvent')}</dt>
        <dd data-testid="lock-last-event">
          {lock.lastEvent ? (
            <>
              {isOneOf(EVENTS, lock.lastEvent) ? t(`locks.event.${lock.lastEvent}`) : lock.lastEvent}
              {lock.lastEventAt && (
                <span className="facts__sub">
                  <When at={lock.lastEventAt} zone={zone} />
                </span>
              )}
            </>
          ) : (
            <span className="muted">{t('locks.event.none')}</span>
          )}
        </dd>
      </div>
    </dl>
  );
}

/** The lock's open incidents (offline, low battery, drift…): severity, what, since when; the Incidents page resolves them. */
function LockIncidents({
  lock,
  t,
  zone,
  headingId,
}: {
  lock: LockDetailView;
  t: Translate;
  zone: string;
  headingId: string;
}) {
  return (
    <section className={styles.part} aria-labelledby={headingId} data-testid="lock-incidents">
      <h3 id={headingId}>{t('locks.incidents.title')}</h3>
      <ul className={styles.codeList}>
        {lock.incidents.map((incident) => (
          <li key={`${incident.kind}-${incident.openedAt}`} data-testid="lock-incident" data-kind={incident.kind}>
            <span className="badge-row">
              {isOneOf(SEVERITIES, incident.severity) ? (
                <Badge tone={SEVERITY_TONE[incident.severity]}>{t(`incidents.severity.${incident.severity}`)}</Badge>
              ) : (
                <Badge>{incident.severity}</Badge>
              )}
              {isOneOf(INCIDENT_KINDS, incident.kind) && <span>{t(`locks.incidents.kind.${incident.kind}`)}</span>}
            </span>
            <span>{incident.summary}</span>
            <span className="small muted">
              {t.rich('locks.incidents.opened', { when: () => <When at={incident.openedAt} zone={zone} /> })}
            </span>
          </li>
        ))}
      </ul>
      <p>
        <Link href="/manage/incidents">{t('locks.incidents.all')}</Link>
      </p>
    </section>
  );
}
