import Link from 'next/link';
import cards from '@/app/desk/_components/stay-cards.module.css';
import { When } from '@/components/time';
import { cell, Table } from '@/components/ui/table';
import type { EntryView } from '@/lib/desk/door-record';
import type { Translate } from '@/lib/i18n/locale';

/**
 * How a door was opened, in words: by whom when the desk opened it remotely, by which kind of code ("Guest code",
 * "Staff code"), or the provider's method (app, by hand, not reported).
 */
export function entryHow(entry: Pick<EntryView, 'method' | 'keyKind' | 'person'>, t: Translate): string {
  if (entry.person !== null) return t('doors.entries.remoteBy', { person: entry.person });
  if (entry.method === 'code' && entry.keyKind !== null) return t(`doors.entries.keyKind.${entry.keyKind}`);
  return t(`doors.entries.method.${entry.method}`);
}

type Props = {
  entries: EntryView[];
  /** The facility's IANA zone: every time is shown in it. */
  timeZone: string;
  headingId: string;
  t: Translate;
};

/** A room's door record: when, which door, opened or locked, how, and the stay whose key it was — cards on a phone. */
export function DoorEntriesTable({ entries, timeZone, headingId, t }: Props) {
  if (entries.length === 0) return <p className="empty-state">{t('doors.entries.empty')}</p>;
  return (
    <Table region={{ labelledBy: headingId }} className={cards.cards} data-testid="door-entries">
      <thead>
        <tr>
          <th scope="col">{t('doors.entries.col.when')}</th>
          <th scope="col">{t('doors.entries.col.door')}</th>
          <th scope="col">{t('doors.entries.col.what')}</th>
          <th scope="col">{t('doors.entries.col.how')}</th>
          <th scope="col">{t('doors.entries.col.stay')}</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((entry) => (
          <tr key={entry.id} data-testid="door-entry" data-kind={entry.kind} data-method={entry.method}>
            <th scope="row">
              <When at={entry.occurredAt} zone={timeZone} />
            </th>
            <td className={cell.wrap} data-label={t('doors.entries.col.door')}>
              {entry.lockName}
            </td>
            <td data-label={t('doors.entries.col.what')}>{t(`doors.entries.kind.${entry.kind}`)}</td>
            <td className={cell.wrap} data-label={t('doors.entries.col.how')}>
              {entryHow(entry, t)}
              {entry.reason !== null && (
                <span className="facts__sub">
                  {t('audit.col.why')}: {entry.reason}
                </span>
              )}
            </td>
            <td data-label={t('doors.entries.col.stay')}>
              {entry.reservationId ? (
                <Link href={`/desk/reservations/${entry.reservationId}`}>
                  {t('deskRoom.title', { room: entry.roomLabel ?? '' })}
                </Link>
              ) : (
                <span className="muted">—</span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
