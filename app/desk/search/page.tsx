import type { Metadata } from 'next';
import Link from 'next/link';
import { DeskNav } from '@/app/desk/_components/desk-nav';
import { FocusOnMount } from '@/app/desk/_components/focus-on-mount';
import { ReservationStatusBadge } from '@/app/desk/_components/reservation-status-badge';
import cards from '@/app/desk/_components/stay-cards.module.css';
import { getT } from '@/i18n/server';
import { requireStaff } from '@/app/_server/staff';
import { Span } from '@/components/time';
import { Button } from '@/components/ui/button';
import { Field, Input } from '@/components/ui/field';
import { cell, Table } from '@/components/ui/table';
import { MAX_SEARCH_LENGTH, searchReservations } from '@/lib/desk/search-reservations';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('search.title') };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** Finds reservations by guest name, room label, booking reference or the start of their id (a plain GET form). */
export default async function SearchPage({ searchParams }: Props) {
  const staff = await requireStaff('desk.view', '/desk/search');
  const [t, params] = await Promise.all([getT(), searchParams]);
  const raw = Array.isArray(params.q) ? params.q[0] : params.q;
  const query = (raw ?? '').trim().slice(0, MAX_SEARCH_LENGTH);
  const hits =
    query === '' ? [] : await searchReservations({ tenantId: staff.current.tenantId, userId: staff.user.id, query });

  return (
    <>
      <header className="page__header">
        <h1>{t('search.title')}</h1>
      </header>
      <DeskNav current="search" />
      <form method="get" action="/desk/search" role="search" className="form">
        <Field id="search-q" label={t('search.label')} hint={t('search.hint')}>
          {(control) => (
            <Input
              {...control}
              name="q"
              type="search"
              defaultValue={query}
              maxLength={MAX_SEARCH_LENGTH}
              autoComplete="off"
            />
          )}
        </Field>
        <div>
          <Button type="submit" variant="primary">
            {t('search.submit')}
          </Button>
        </div>
      </form>

      {query !== '' && (
        <section className="section" aria-labelledby="search-results-title">
          {/* The result of the search gets the focus, so a keyboard or screen reader lands on it. */}
          <FocusOnMount key={query}>
            <h2 id="search-results-title" role="status" data-testid="search-summary">
              {t('search.results', { count: hits.length, query })}
            </h2>
          </FocusOnMount>
          {hits.length > 0 && (
            <Table region={{ labelledBy: 'search-results-title' }} className={cards.cards} data-testid="search-results">
              <thead>
                <tr>
                  <th scope="col">{t('search.col.room')}</th>
                  <th scope="col">{t('search.col.guest')}</th>
                  <th scope="col">{t('search.col.stay')}</th>
                  <th scope="col">{t('search.col.status')}</th>
                  <th scope="col">{t('search.col.reference')}</th>
                </tr>
              </thead>
              <tbody>
                {hits.map((hit) => (
                  <tr key={hit.id} data-reservation-id={hit.id}>
                    <th scope="row">
                      <Link
                        href={`/desk/reservations/${hit.id}`}
                        className="table-link"
                        aria-label={t('day.open', {
                          room: hit.roomLabel,
                          guest: hit.guestName ?? t('guest.deletedAccount'),
                        })}
                      >
                        {hit.roomLabel}
                      </Link>
                      <span className="facts__sub">{hit.facilityName}</span>
                    </th>
                    <td className={cell.wrap} data-label={t('search.col.guest')}>
                      {hit.guestName ?? <span className="tombstone">{t('guest.deletedAccount')}</span>}
                    </td>
                    <td data-label={t('search.col.stay')}>
                      <Span from={hit.startsAt} to={hit.endsAt} zone={hit.timeZone} />
                    </td>
                    <td data-label={t('search.col.status')}>
                      <ReservationStatusBadge status={hit.status} />
                    </td>
                    <td className={cell.wrap} data-label={t('search.col.reference')}>
                      {hit.externalRef ?? <span className="muted">{t('search.noReference')}</span>}
                      <span className="facts__sub">
                        <code>{hit.id.slice(0, 8)}</code>
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </section>
      )}
    </>
  );
}
