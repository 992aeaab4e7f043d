import Link from 'next/link';
import { When } from '@/components/time';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { cell, Table } from '@/components/ui/table';
import type { Translate } from '@/lib/i18n/locale';
import type { MessageRecord } from '@/lib/messages/message-view';

const STATUS_TONE: Record<MessageRecord['status'], BadgeTone> = {
  queued: 'info',
  sending: 'info',
  sent: 'success',
  failed: 'danger',
  skipped: 'neutral',
};

/**
 * Messages as a table, for the desk (one reservation's: kind, recipient, status, attempts, sent time)
 * and the manager (`detailed`: also when each was queued, its last error and its reservation).
 */
export function MessageTable({
  labelledBy,
  messages,
  t,
  zone,
  detailed = false,
}: {
  labelledBy: string;
  messages: MessageRecord[];
  t: Translate;
  zone: string;
  detailed?: boolean;
}) {
  return (
    <Table region={{ labelledBy }}>
      <thead>
        <tr>
          {detailed && <th scope="col">{t('messages.columns.created')}</th>}
          <th scope="col">{t('messages.columns.kind')}</th>
          <th scope="col">{t('messages.columns.to')}</th>
          <th scope="col">{t('messages.columns.status')}</th>
          <th scope="col" className={cell.numeric}>
            {t('messages.columns.attempts')}
          </th>
          <th scope="col">{t('messages.columns.sentAt')}</th>
          {detailed && <th scope="col">{t('messages.columns.error')}</th>}
          {detailed && <th scope="col">{t('messages.columns.reservation')}</th>}
        </tr>
      </thead>
      <tbody>
        {messages.map((m) => (
          <tr key={m.id} data-testid="message-row" data-status={m.status}>
            {detailed && (
              <td>
                <When at={m.createdAt} zone={zone} />
              </td>
            )}
            <td>{t(`messages.kind.${m.kind}`)}</td>
            <td className={cell.wrap}>{m.to ?? <span className="tombstone">{t('messages.erased')}</span>}</td>
            <td>
              <Badge tone={STATUS_TONE[m.status]} title={m.lastError ?? undefined}>
                {t(`messages.status.${m.status}`)}
              </Badge>
            </td>
            <td className={cell.numeric}>{m.attempts}</td>
            <td>{m.sentAt ? <When at={m.sentAt} zone={zone} /> : '—'}</td>
            {detailed && <td className={cell.wrap}>{m.lastError ?? '—'}</td>}
            {detailed && (
              <td>
                {m.reservationId ? (
                  <Link href={`/desk/reservations/${m.reservationId}`}>{m.roomLabel ?? t('messages.manage.open')}</Link>
                ) : (
                  '—'
                )}
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
