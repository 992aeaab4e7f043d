import Link from 'next/link';
import { getT } from '@/i18n/server';
import styles from './desk-nav.module.css';

const LINKS = [
  { href: '/desk', key: 'today' },
  { href: '/desk/grid', key: 'grid' },
  { href: '/desk/search', key: 'search' },
  { href: '/desk/bookings', key: 'reservations' },
  { href: '/desk/holds', key: 'holds' },
] as const;

/** The desk's own pages: the day, the room grid, search, the reservations list and the unpaid holds. */
export async function DeskNav({ current }: { current: (typeof LINKS)[number]['key'] }) {
  const t = await getT();
  return (
    <nav aria-label={t('day.nav.label')} className={styles.nav}>
      <ul className={styles.list}>
        {LINKS.map((link) => (
          <li key={link.key}>
            <Link href={link.href} className={styles.link} aria-current={link.key === current ? 'page' : undefined}>
              {t(`day.nav.${link.key}`)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
