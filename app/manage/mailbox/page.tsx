import type { Metadata } from 'next';
import { Fragment, type ReactNode } from 'react';
import { PageHeader } from '@/app/manage/_components/list-page';
import { ManageNav } from '@/app/manage/_components/manage-nav';
import { TestMailForm } from '@/app/manage/_components/test-mail-form';
import { ClientMessages } from '@/components/client-messages';
import { getT } from '@/i18n/server';
import { requireStaff } from '@/app/_server/staff';
import { MessageTable } from '@/components/message-table';
import { TimesIn, When } from '@/components/time';
import { appBaseUrl } from '@/lib/auth/guest-links';
import { listCaughtMail } from '@/lib/messages/list-caught-mail';
import { listTenantMessages } from '@/lib/messages/list-messages';
import { tenantTimeZone } from '@/lib/rooms/list-facilities';
import styles from './mailbox.module.css';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('mailbox.title') };
}

/**
 * A mail's plain text with this app's own addresses as links (the guest link, the incidents page);
 * any other address stays text — a guest's name or a facility's words could carry one.
 */
function Linkified({ text }: { text: string }) {
  const base = `${appBaseUrl()}/`;
  const parts = text.split(/(https?:\/\/[^\s<>"')\]]+)/g);
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 && part.startsWith(base) ? (
          <a key={i} href={part} target="_blank" rel="noopener noreferrer">
            {part}
          </a>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </>
  );
}

/**
 * The manager's mailbox: the messages that failed, every recent message, and the mail the local
 * catcher caught (npm start without SMTP_URL) — only mail of this tenant's messages.
 */
export default async function MailboxPage() {
  const staff = await requireStaff('mailbox.view', '/manage/mailbox');
  const { tenantId } = staff.current;
  const userId = staff.user.id;
  const [t, zone, failed, recent, caught] = await Promise.all([
    getT(),
    tenantTimeZone({ tenantId }),
    listTenantMessages({ tenantId, userId, failedOnly: true, limit: 50 }),
    listTenantMessages({ tenantId, userId, limit: 100 }),
    listCaughtMail({ tenantId, userId }),
  ]);
  return (
    <>
      <ManageNav staff={staff} current="mailbox" />
      <PageHeader title={t('mailbox.title')} lead={t('messages.manage.lead')}>
        <TimesIn zone={zone} />
      </PageHeader>

      <section className="section card" aria-labelledby="mailbox-test">
        <h2 id="mailbox-test">{t('mailbox.test.title')}</h2>
        <p className="muted">{t('mailbox.test.lead')}</p>
        <ClientMessages only={['mailbox']}>
          <TestMailForm ownEmail={staff.user.email} />
        </ClientMessages>
      </section>

      <section className="section" aria-labelledby="mailbox-failed">
        <h2 id="mailbox-failed">{t('mailbox.failedTitle')}</h2>
        <p className="muted" data-testid="failed-count">
          {t('messages.manage.failed', { count: failed.length })}
        </p>
        {failed.length > 0 && <MessageTable labelledBy="mailbox-failed" messages={failed} t={t} zone={zone} detailed />}
      </section>

      <section className="section" aria-labelledby="mailbox-all">
        <h2 id="mailbox-all">{t('mailbox.allMessages')}</h2>
        {recent.length === 0 ? (
          <p className="empty-state">{t('messages.none')}</p>
        ) : (
          <MessageTable labelledBy="mailbox-all" messages={recent} t={t} zone={zone} detailed />
        )}
      </section>

      <section className="section" aria-labelledby="mailbox-caught">
        <h2 id="mailbox-caught">{t('mailbox.title')}</h2>
        <p className="muted">{t('mailbox.lead')}</p>
        {caught.length === 0 ? (
          <p className="empty-state">{t('mailbox.none')}</p>
        ) : (
          <ul className={styles.list}>
            {caught.map((mail) => (
              <li key={mail.id}>
                <article className="card" data-testid="caught-mail" aria-labelledby={`mail-${mail.id}`}>
                  <h3 id={`mail-${mail.id}`}>{mail.subject}</h3>
                  <dl className="facts">
                    <Fact label={t('mailbox.to')}>
                      <span data-testid="caught-mail-to">{mail.to}</span>
                    </Fact>
                    <Fact label={t('mailbox.received')}>
                      <When at={mail.receivedAt} zone={zone} />
                    </Fact>
                    {mail.attachments.length > 0 && (
                      <Fact label={t('mailbox.attachments')}>
                        {mail.attachments.map((a) => `${a.filename} (${a.contentType})`).join(', ')}
                      </Fact>
                    )}
                  </dl>
                  <pre className={styles.text} data-testid="caught-mail-text">
                    <Linkified text={mail.text} />
                  </pre>
                </article>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
