import { useFormatter, useTranslations } from 'next-intl';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { StayName } from '@/components/record-name';
import type { OverviewFigures } from '@/lib/overview/overview-figures';
import { DayChart } from './day-chart';
import styles from './overview.module.css';

/** Which pages the reader may open; a tile links only where its reader can act. */
export type OverviewLinks = { desk: boolean; locks: boolean; incidents: boolean; webhooks: boolean; mailbox: boolean };

/** One figure with what it means and where to act on it. `value` is the figure e2e tests and the eye read first. */
function Tile({
  id,
  title,
  value,
  alert,
  href,
  linkLabel,
  children,
}: {
  id: string;
  title: string;
  value: ReactNode;
  alert: boolean;
  href: string | null;
  linkLabel: string;
  children?: ReactNode;
}) {
  return (
    <section
      className={alert ? `${styles.tile} ${styles.alert}` : styles.tile}
      aria-labelledby={`tile-${id}-title`}
      data-testid={`overview-tile-${id}`}
    >
      <h3 id={`tile-${id}-title`} className={styles.tileTitle}>
        {title}
      </h3>
      <div className={styles.value} data-testid={`overview-${id}-value`}>
        {value}
      </div>
      {children}
      {href && (
        <p className={styles.tileLink}>
          <Link href={href} data-testid={`overview-${id}-link`}>
            {linkLabel}
          </Link>
        </p>
      )}
    </section>
  );
}

/** Guest messages (and managers' alerts) that failed after every retry; the mailbox lists them. */
export function MessagesFailedTile({ count, href }: { count: number; href: string | null }) {
  const t = useTranslations('overview.messages');
  return (
    <Tile id="messages" title={t('title')} value={count} alert={count > 0} href={href} linkLabel={t('link')}>
      <p className={styles.note}>{t('lead')}</p>
    </Tile>
  );
}

/** The manager's "now": occupancy per facility, keys not on their lock, open incidents, webhook and message failures. */
export function OverviewTiles({ figures, links }: { figures: OverviewFigures; links: OverviewLinks }) {
  const t = useTranslations('overview');
  const format = useFormatter();
  const { occupancy, keys, incidents } = figures;
  const dayLabel = (day: string) =>
    format.dateTime(new Date(`${day}T12:00:00Z`), { month: 'short', day: 'numeric', timeZone: 'UTC' });
  return (
    <section aria-labelledby="overview-now-title" className="section" data-testid="overview-now">
      <h2 id="overview-now-title">{t('today.title')}</h2>
      <p className="muted">{t('today.lead')}</p>
      <div className={styles.tiles}>
        <Tile
          id="occupancy"
          title={t('occupancy.title')}
          value={
            occupancy.length === 0
              ? '—'
              : `${occupancy.reduce((n, f) => n + f.occupied, 0)} / ${occupancy.reduce((n, f) => n + f.rooms, 0)}`
          }
          alert={false}
          href={links.desk ? '/desk' : null}
          linkLabel={t('occupancy.link')}
        >
          {occupancy.length === 0 ? (
            <p className={styles.note}>{t('occupancy.empty')}</p>
          ) : (
            <ul className={styles.list}>
              {occupancy.map((f) => (
                <li
                  key={f.facilityId}
                  data-testid="overview-occupancy-facility"
                  data-occupied={f.occupied}
                  data-rooms={f.rooms}
                >
                  <strong>{f.name}</strong> · {t(`occupancy.${f.bookingUnit}`, { day: dayLabel(f.day) })}:{' '}
                  {t('occupancy.figure', { occupied: f.occupied, rooms: f.rooms })}
                  <meter className={styles.meter} min={0} max={Math.max(f.rooms, 1)} value={f.occupied} aria-hidden />
                </li>
              ))}
            </ul>
          )}
        </Tile>

        <Tile
          id="keys"
          title={t('keys.title')}
          value={keys.failed + keys.pending}
          alert={keys.failed > 0}
          href={links.locks ? '/manage/locks' : null}
          linkLabel={t('keys.link')}
        >
          {keys.failed + keys.pending === 0 ? (
            <p className={styles.note}>{t('keys.none')}</p>
          ) : (
            <>
              <p className={styles.note}>
                {t('keys.failed', { count: keys.failed })} · {t('keys.pending', { count: keys.pending })}
              </p>
              <p className={styles.note}>{t('keys.named')}</p>
              <ul className={styles.list}>
                {keys.named.map((k) => (
                  <li key={k.keyId} data-testid="overview-key" data-sync={k.vendorSync}>
                    <StayName stay={k} link={links.desk} /> · {t(`keys.state.${k.vendorSync}`)}
                  </li>
                ))}
              </ul>
            </>
          )}
        </Tile>

        <Tile
          id="incidents"
          title={t('incidents.title')}
          value={incidents.open}
          alert={incidents.critical > 0}
          href={links.incidents ? '/manage/incidents' : null}
          linkLabel={t('incidents.link')}
        >
          <p className={styles.note}>
            {incidents.open === 0 ? t('incidents.none') : t('incidents.critical', { count: incidents.critical })}
          </p>
        </Tile>

        <Tile
          id="webhooks"
          title={t('webhooks.title')}
          value={figures.webhookFailures24h}
          alert={figures.webhookFailures24h > 0}
          href={links.webhooks ? '/manage/webhooks' : null}
          linkLabel={t('webhooks.link')}
        >
          <p className={styles.note}>{t('webhooks.lead')}</p>
        </Tile>

        <MessagesFailedTile count={figures.messagesFailed} href={links.mailbox ? '/manage/mailbox' : null} />
      </div>
    </section>
  );
}

/** The last 14 days as three small charts where a picture says more than a table. */
export function OverviewCharts({ figures, zone }: { figures: OverviewFigures; zone: string }) {
  const t = useTranslations('overview.charts');
  const days = figures.days.map((d) => d.day);
  const of = (key: Exclude<keyof OverviewFigures['days'][number], 'day'>) => figures.days.map((d) => d[key]);
  return (
    <section aria-labelledby="overview-charts-title" className="section" data-testid="overview-charts">
      <h2 id="overview-charts-title">{t('title')}</h2>
      <p className="muted">{t('lead', { zone })}</p>
      <div className={styles.charts}>
        <DayChart
          id="check-ins"
          title={t('checkIns.title')}
          days={days}
          series={[{ label: t('checkIns.series'), values: of('checkIns'), role: 'total' }]}
          empty={t('checkIns.empty')}
        />
        <DayChart
          id="keys"
          title={t('keys.title')}
          days={days}
          series={[
            { label: t('keys.issued'), values: of('keysIssued'), role: 'total' },
            { label: t('keys.failed'), values: of('keysFailed'), role: 'part' },
          ]}
          empty={t('keys.empty')}
        />
        <DayChart
          id="webhooks"
          title={t('webhooks.title')}
          days={days}
          series={[
            { label: t('webhooks.delivered'), values: of('webhooks'), role: 'total' },
            { label: t('webhooks.failed'), values: of('webhookFailures'), role: 'part' },
          ]}
          empty={t('webhooks.empty')}
        />
      </div>
    </section>
  );
}
