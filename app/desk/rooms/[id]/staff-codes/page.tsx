import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { z } from 'zod';
import { getT } from '@/i18n/server';
import { requireStaff } from '@/app/_server/staff';
import { KeyBadges } from '@/app/desk/_components/key-badges';
import { KeyPin } from '@/app/desk/_components/key-pin';
import { RevokeKeyForm } from '@/app/desk/_components/revoke-key';
import { StaffCodeForm } from '@/app/desk/_components/staff-code-form';
import { ClientMessages } from '@/components/client-messages';
import { Span, TimesIn } from '@/components/time';
import { can } from '@/lib/auth/permissions';
import { listStaffCodes, staffCodeRoom } from '@/lib/keys/staff-codes';
import { instantToZonedLocal } from '@/lib/time/zoned-local';

type Props = { params: Promise<{ id: string }> };

const ZRoomIdSchema = z.uuid();

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('staffCodes.metaTitle') };
}

/** A room's staff codes at the desk: who each is for and who made it, its window, its PIN (audited reveal), revoke; and a new one. */
export default async function StaffCodesPage({ params }: Props) {
  const { id } = await params;
  const staff = await requireStaff('staff_codes.manage', `/desk/rooms/${encodeURIComponent(id)}/staff-codes`);
  if (!ZRoomIdSchema.safeParse(id).success) notFound();
  const tenantId = staff.current.tenantId;
  const room = await staffCodeRoom({ tenantId, userId: staff.user.id, roomId: id });
  if (!room) notFound();
  const [t, codes] = await Promise.all([getT(), listStaffCodes({ tenantId, userId: staff.user.id, roomId: id })]);
  const { role } = staff.current;
  const now = new Date();
  // A sensible first window: from the next full hour, for two hours.
  const start = new Date(Math.ceil(now.getTime() / 3_600_000) * 3_600_000);
  return (
    <ClientMessages only={['key', 'staffCodes', 'stay']}>
      <p className="back-link">
        <Link href="/desk">← {t('staffCodes.back')}</Link>
      </p>
      <header className="page__header">
        <h1>{t('staffCodes.title', { room: room.label })}</h1>
        <p className="page__lead">{t('staffCodes.lead')}</p>
        <TimesIn zone={room.timeZone} />
      </header>
      {!room.archived && (
        <StaffCodeForm
          roomId={room.id}
          room={room.label}
          timeZone={room.timeZone}
          startsLocal={instantToZonedLocal(start, room.timeZone)}
          endsLocal={instantToZonedLocal(new Date(start.getTime() + 2 * 3_600_000), room.timeZone)}
        />
      )}
      <section className="section" aria-labelledby="staff-codes-list">
        <h2 id="staff-codes-list">{t('staffCodes.listTitle')}</h2>
        {codes.length === 0 ? (
          <p className="empty-state">{t('staffCodes.empty')}</p>
        ) : (
          <ul className="key-list">
            {codes.map((code) => {
              const live = code.status === 'active' || code.status === 'pre_issued';
              return (
                <li key={code.id} className="card" data-testid="staff-code" data-key-status={code.status}>
                  <p>
                    <strong>{code.label}</strong> · {t(`staffCodes.purpose.${code.purpose}`)}
                  </p>
                  <KeyBadges status={code.status} vendorSync={code.vendorSync} vendorError={null} kind="staff" />
                  <dl className="facts">
                    <div>
                      <dt>{t('staffCodes.window')}</dt>
                      <dd>
                        <Span from={new Date(code.validFrom)} to={new Date(code.expiresAt)} zone={room.timeZone} />
                      </dd>
                    </div>
                    <div>
                      <dt>{t('staffCodes.issuedBy')}</dt>
                      <dd>{code.issuedBy ?? '—'}</dd>
                    </div>
                    <div>
                      <dt>{t('key.pin')}</dt>
                      <dd>
                        {live ? (
                          <KeyPin keyId={code.id} canReveal={can(role, 'keys.reveal_pin')} />
                        ) : (
                          <span className="muted">{t('key.pinEnded')}</span>
                        )}
                      </dd>
                    </div>
                  </dl>
                  {can(role, 'keys.revoke') && <RevokeKeyForm keyId={code.id} live={live} timeZone={room.timeZone} />}
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </ClientMessages>
  );
}
