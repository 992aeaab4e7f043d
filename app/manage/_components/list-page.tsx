import Link from 'next/link';
import type { ReactNode } from 'react';
import { buttonClassName } from '@/components/ui/button';
import { Table } from '@/components/ui/table';

/**
 * A manage page's heading: its title, the lead sentence, then what follows them (the time zone,
 * a link, a note). With `action` (a button beside the heading) the header is split in two.
 */
export function PageHeader({
  title,
  lead,
  action,
  children,
}: {
  title: ReactNode;
  lead?: ReactNode;
  action?: ReactNode;
  children?: ReactNode;
}) {
  const heading = (
    <>
      <h1>{title}</h1>
      {lead !== undefined && <p className="page__lead">{lead}</p>}
      {children}
    </>
  );
  return action ? (
    <header className="page__header page__header--split">
      <div>{heading}</div>
      {action}
    </header>
  ) : (
    <header className="page__header">{heading}</header>
  );
}

/** What a list shows when it has no rows: a sentence, and where to go next (a link or a button). */
export function EmptyState({ testId, next, children }: { testId?: string; next?: ReactNode; children: ReactNode }) {
  return next ? (
    <div className="empty-state" data-testid={testId}>
      <p>{children}</p>
      {next}
    </div>
  ) : (
    <p className="empty-state" data-testid={testId}>
      {children}
    </p>
  );
}

/**
 * One list of a manage page: its heading, then either the empty state (`empty` not null) or the
 * table (`children`: its head and body) in a region named by the heading, then `after` (a pager).
 */
export function ListSection({
  headingId,
  title,
  action = null,
  empty,
  emptyTestId,
  tableTestId,
  testId,
  after,
  children,
}: {
  headingId: string;
  title: ReactNode;
  /** A link under the heading (where the list is managed). */
  action?: ReactNode;
  empty: ReactNode | null;
  emptyTestId?: string;
  tableTestId?: string;
  testId?: string;
  after?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={headingId} className="section" data-testid={testId}>
      <h2 id={headingId}>{title}</h2>
      {action && <p>{action}</p>}
      {empty !== null ? (
        <EmptyState testId={emptyTestId}>{empty}</EmptyState>
      ) : (
        <Table region={{ labelledBy: headingId }} data-testid={tableTestId}>
          {children}
        </Table>
      )}
      {after}
    </section>
  );
}

type PageLink = { href: string; testId: string; label: string };

/** A list's page links (newest, older…), secondary buttons in a named navigation; nothing when there are none. */
export function Pager({ label, links }: { label: string; links: (PageLink | null)[] }) {
  const shown = links.filter((link): link is PageLink => link !== null);
  if (shown.length === 0) return null;
  return (
    <nav aria-label={label} className="pager">
      {shown.map((link) => (
        <Link
          key={link.testId}
          href={link.href}
          className={buttonClassName({ variant: 'secondary' })}
          data-testid={link.testId}
        >
          {link.label}
        </Link>
      ))}
    </nav>
  );
}
