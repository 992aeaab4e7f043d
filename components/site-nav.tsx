'use client';

import { useTranslations } from 'next-intl';
import Link from 'next/link';
import { usePathname } from 'next/navigation';

export type NavSection = 'desk' | 'bookings' | 'manage';

type NavLink = { href: string; section: NavSection };

/**
 * The top bar's section links. The current one is the link whose path is the longest prefix of
 * the page's path (so /desk/bookings/new marks "Bookings", not "Front desk"), which only the
 * browser's path can tell: layouts do not see it.
 */
export function SiteNav({ links }: { links: readonly NavLink[] }) {
  const t = useTranslations();
  const pathname = usePathname() ?? '';
  const current = links
    .filter((link) => pathname === link.href || pathname.startsWith(`${link.href}/`))
    .sort((a, b) => b.href.length - a.href.length)[0]?.href;
  return (
    <nav aria-label={t('a11y.mainNav')} className="site-nav">
      <ul className="site-nav__list">
        {links.map((link) => (
          <li key={link.href}>
            <Link href={link.href} className="site-nav__link" aria-current={link.href === current ? 'page' : undefined}>
              {t(`nav.${link.section}`)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
