import { useTranslations } from 'next-intl';
import Link from 'next/link';
import { Badge } from '@/components/ui/badge';
import type { SetupChecklist as TSetupChecklist, TSetupStep } from '@/lib/overview/setup-checklist';
import styles from './overview.module.css';

function hrefOf(step: TSetupStep, facilityId: string | null): string {
  const facility = facilityId ? `/manage/facilities/${facilityId}` : '/manage/facilities';
  switch (step) {
    case 'facility':
      return facilityId ? facility : '/manage/facilities/new';
    case 'rooms':
      return '/manage/rooms';
    case 'doors':
      return '/manage/locks';
    case 'channels':
      return '/manage/booking-sources';
    case 'payments':
      return facility;
    case 'staff':
      return '/manage/staff';
  }
}

/**
 * The first-run checklist of the manager's screen: facility, rooms, doors, booking channels, payments
 * and staff, each ticked from the tenant's data and linking to the page where it is done. The page
 * shows it until every step is done.
 */
export function SetupChecklist({ checklist }: { checklist: TSetupChecklist }) {
  const t = useTranslations('manage.setup');
  const done = checklist.steps.filter((s) => s.done).length;
  return (
    <section aria-labelledby="setup-title" className="section" data-testid="setup-checklist">
      <h2 id="setup-title">{t('title')}</h2>
      <p className="muted" data-testid="setup-progress">
        {t('progress', { done, total: checklist.steps.length })}
      </p>
      <ol className={styles.steps}>
        {checklist.steps.map(({ step, done: isDone }) => (
          <li
            key={step}
            className={isDone ? `${styles.step} ${styles.stepDone}` : styles.step}
            data-testid={`setup-step-${step}`}
            data-done={isDone}
          >
            <span className={styles.tick} aria-hidden="true">
              {isDone ? '✓' : '○'}
            </span>
            <div>
              <h3 className={styles.stepTitle}>{t(`${step}.title`)}</h3>
              <p className={styles.note}>{t(`${step}.lead`)}</p>
            </div>
            {isDone ? (
              <Badge tone="success">{t('done')}</Badge>
            ) : (
              <Link href={hrefOf(step, checklist.facilityId)} data-testid={`setup-step-${step}-link`}>
                {t(`${step}.link`)}
              </Link>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
