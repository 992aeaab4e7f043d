import type { Metadata } from 'next';
import { PageHeader } from '@/app/manage/_components/list-page';
import { ManageNav } from '@/app/manage/_components/manage-nav';
import {
  CreateMemberForm,
  MemberActions,
  ResendInvitation,
  RevokeInvitation,
} from '@/app/manage/_components/member-forms';
import { ClientMessages } from '@/components/client-messages';
import { Badge } from '@/components/ui/badge';
import { Table } from '@/components/ui/table';
import { formatDateTime } from '@/lib/i18n/formats';
import { tenantTimeZone } from '@/lib/rooms/list-facilities';
import { listInvitations } from '@/lib/staff/invitations';
import { listMembers } from '@/lib/staff/members';
import { TimesIn } from '@/components/time';
import { getLocale, getT } from '@/i18n/server';
import { requireStaff } from '@/app/_server/staff';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('staff.title') };
}

/**
 * The tenant's members with role and status — invite one, change a role, deactivate or reactivate,
 * unlock — and the invitations still waiting for an answer (send one again, or revoke it).
 */
export default async function StaffPage() {
  const staff = await requireStaff('staff.manage', '/manage/staff');
  const { tenantId } = staff.current;
  const [t, locale, zone, members, invitations] = await Promise.all([
    getT(),
    getLocale(),
    tenantTimeZone({ tenantId }),
    listMembers({ tenantId }),
    listInvitations({ tenantId }),
  ]);

  return (
    <>
      <ManageNav staff={staff} current="staff" />
      <PageHeader title={t('staff.title')} lead={t('staff.lead', { tenant: staff.current.tenantName })} />
      <ClientMessages only={['staff']}>
        <section aria-labelledby="member-add-title" className="section card">
          <h2 id="member-add-title">{t('staff.create.title')}</h2>
          <p className="muted">{t('staff.create.lead', { tenant: staff.current.tenantName })}</p>
          <CreateMemberForm />
        </section>
        <section aria-labelledby="invitations-title" className="section">
          <h2 id="invitations-title">{t('staff.invitations.title')}</h2>
          <TimesIn zone={zone} />
          {invitations.length === 0 ? (
            <p className="muted" data-testid="invitations-empty">
              {t('staff.invitations.empty')}
            </p>
          ) : (
            <Table region={{ labelledBy: 'invitations-title' }} data-testid="invitations-table">
              <thead>
                <tr>
                  <th scope="col">{t('staff.invitations.col.invitee')}</th>
                  <th scope="col">{t('staff.invitations.col.role')}</th>
                  <th scope="col">{t('staff.invitations.col.status')}</th>
                  <th scope="col">{t('staff.invitations.col.actions')}</th>
                </tr>
              </thead>
              <tbody>
                {invitations.map((i) => (
                  // Keyed by address (one waiting invitation each): sent again, the row keeps its answer.
                  <tr key={i.email} data-testid="invitation-row" data-email={i.email}>
                    <th scope="row">
                      {i.name || <span className="muted">{t('staff.noName')}</span>}
                      <span className="facts__sub">{i.email}</span>
                    </th>
                    <td>{t(`staff.role.${i.role}`)}</td>
                    <td>
                      {i.expired ? (
                        <Badge tone="danger">{t('staff.invitations.expired')}</Badge>
                      ) : (
                        <Badge tone="warning">
                          {t('staff.invitations.pending', {
                            time: formatDateTime(i.expiresAt, 'stamp', { locale, timeZone: zone }),
                          })}
                        </Badge>
                      )}
                    </td>
                    <td>
                      <ResendInvitation invitation={{ id: i.id, email: i.email }} />
                      <RevokeInvitation invitation={{ id: i.id, email: i.email }} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </section>
        <section aria-labelledby="members-title" className="section">
          <h2 id="members-title">{t('staff.list')}</h2>
          <Table region={{ labelledBy: 'members-title' }} data-testid="members-table">
            <thead>
              <tr>
                <th scope="col">{t('staff.col.member')}</th>
                <th scope="col">{t('staff.col.role')}</th>
                <th scope="col">{t('staff.col.status')}</th>
                <th scope="col">{t('staff.col.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {members.map((m) => {
                const label = m.name || m.email;
                return (
                  <tr
                    key={m.userId}
                    data-testid="member-row"
                    data-email={m.email}
                    data-status={m.deactivatedAt ? 'deactivated' : 'active'}
                  >
                    <th scope="row">
                      {m.name || <span className="muted">{t('staff.noName')}</span>}
                      <span className="facts__sub">{m.email}</span>
                      {m.userId === staff.user.id && <span className="facts__sub">{t('staff.you')}</span>}
                    </th>
                    <td>{t(`staff.role.${m.role}`)}</td>
                    <td>
                      {m.deactivatedAt ? (
                        <Badge tone="danger">{t('staff.deactivated')}</Badge>
                      ) : (
                        <Badge tone="success">{t('staff.active')}</Badge>
                      )}
                    </td>
                    <td>
                      <MemberActions
                        member={{ userId: m.userId, label, role: m.role, active: m.deactivatedAt === null }}
                      />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </Table>
        </section>
      </ClientMessages>
    </>
  );
}
