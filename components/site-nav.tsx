'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';

export type NavSection = 'desk' | 'bookings' | 'manage';

type NavLink = { href: string; label: string };

/**
 * The top bar's section links. The current one is the link whose path is the longest prefix of
 * the page's path (so /desk/bookings/new marks "Bookings", not "Front desk"), which only the
 * browser's path can tell: layouts do not see it. Its words come translated from the header, so the
 * pages that show it load no i18n runtime for it (decision 013).
 */
export function SiteNav({ label, links }: { label: string; links: readonly NavLink[] }) {
  const pathname = usePathname() ?? '';
  const current = links
    .filter((link) => pathname === link.href || pathname.startsWith(`${link.href}/`))
    .sort((a, b) => b.href.length - a.href.length)[0]?.href;
  return (
    <nav aria-label={label} className="site-nav">
      <ul className="site-nav__list">
        {links.map((link) => (
          <li key={link.href}>
            <Link href={link.href} className="site-nav__link" aria-current={link.href === current ? 'page' : undefined}>
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
