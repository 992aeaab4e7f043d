import Link from 'next/link';
import { Badge } from '@/components/ui/badge';
import { When } from '@/components/time';
import type { DeskGuestMessage } from '@/lib/desk/guest-messages';
import type { Translate } from '@/lib/i18n/locale';
import { GuestMessageRead } from './guest-message-read';

/**
 * What the guests of the day's stays sent the desk from their links, newest first: a "my code does
 * not work" report marked urgent, the unread ones with "Mark read". The count of unread ones is the
 * section's badge.
 */
export function DeskGuestMessages({ messages, zone, t }: { messages: DeskGuestMessage[]; zone: string; t: Translate }) {
  const unread = messages.filter((m) => m.readAt === null).length;
  return (
    <section className="desk-section" aria-labelledby="guest-messages-title" data-testid="day-guest-messages">
      <h2 id="guest-messages-title">
        {t('day.guestMessages.title')}{' '}
        {unread > 0 && (
          <Badge tone="warning" data-testid="guest-messages-unread">
            {t('day.guestMessages.unread', { count: unread })}
          </Badge>
        )}
      </h2>
      {messages.length === 0 ? (
        <p className="empty-state">{t('day.guestMessages.empty')}</p>
      ) : (
        <ol className="timeline">
          {messages.map((m) => {
            const who = t('day.subject', { room: m.roomLabel, guest: m.guestName ?? t('guest.deletedAccount') });
            return (
              <li
                key={m.id}
                className="timeline__event"
                data-testid="guest-message"
                data-kind={m.kind}
                data-read={m.readAt ? 'true' : 'false'}
              >
                <div className="timeline__head">
                  <span className="timeline__what">
                    {m.priority === 'high' && <Badge tone="danger">{t('day.guestMessages.urgent')}</Badge>}{' '}
                    {m.readAt === null && m.priority !== 'high' && (
                      <Badge tone="info">{t('day.guestMessages.new')}</Badge>
                    )}{' '}
                    <Link href={`/desk/reservations/${m.reservationId}`} className="table-link">
                      {who}
                    </Link>
                  </span>
                  {m.readAt === null ? (
                    <GuestMessageRead
                      messageId={m.id}
                      words={{
                        label: t('day.guestMessages.markRead'),
                        accessibleName: `${t('day.guestMessages.markRead')}: ${who}`,
                      }}
                    />
                  ) : (
                    <span className="muted small">{t('day.guestMessages.read')}</span>
                  )}
                </div>
                <p className="timeline__meta">
                  <When at={m.createdAt} zone={zone} />
                </p>
                {m.kind === 'message' ? (
                  <p className="wrap-anywhere guest-message-body" data-testid="guest-message-body">
                    {m.body}
                  </p>
                ) : (
                  <p>
                    <strong>{t('day.guestMessages.codeProblem')}</strong>
                    {m.occurrences > 1 && <> · {t('day.guestMessages.taps', { count: m.occurrences })}</>}
                    {m.backupSent && <> · {t('day.guestMessages.backupSent')}</>}
                  </p>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
