import type { Metadata } from 'next';
import { LockCard } from '@/app/manage/_components/lock-card';
import { ImportLocksButton } from '@/app/manage/_components/lock-import';
import { LockProviderForm } from '@/app/manage/_components/lock-provider-form';
import { PageHeader } from '@/app/manage/_components/list-page';
import { ManageNav } from '@/app/manage/_components/manage-nav';
import styles from '@/app/manage/_components/locks.module.css';
import { ClientMessages } from '@/components/client-messages';
import { TimesIn } from '@/components/time';
import { listLockDetails } from '@/lib/locks/locks';
import { tenantProviderName } from '@/lib/locks/tenant-provider';
import { simulatedLocksOffered } from '@/lib/locks/simulated-lock';
import { AddSimulatedLockButton } from '@/app/manage/_components/lock-simulated-add';
import { AddLockByDeviceForm } from '@/app/manage/_components/lock-add-by-device';
import { listRooms } from '@/lib/rooms/list-rooms';
import { tenantTimeZone } from '@/lib/rooms/list-facilities';
import { getT } from '@/i18n/server';
import { requireStaff } from '@/app/_server/staff';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('locks.title') };
}

/**
 * The tenant's locks: each one's doors and health, the codes it should hold next to what its
 * provider reported at the last check (never a PIN), with "Re-sync" and "Add this lock to a room";
 * "Import locks from provider" above them, and the tenant's lock provider with its credentials above all.
 */
export default async function LocksPage() {
  const staff = await requireStaff('locks.manage', '/manage/locks');
  const { tenantId } = staff.current;
  const [t, zone, locks, rooms, provider] = await Promise.all([
    getT(),
    tenantTimeZone({ tenantId }),
    listLockDetails({ tenantId }),
    listRooms({ tenantId }),
    tenantProviderName(tenantId),
  ]);
  const roomChoices = rooms.map(({ id, label }) => ({ id, label }));
  const empty = locks.length === 0;

  return (
    <>
      <ManageNav staff={staff} current="locks" />
      <PageHeader title={t('locks.title')} lead={t('locks.lead', { tenant: staff.current.tenantName })}>
        <TimesIn zone={zone} />
      </PageHeader>

      <ClientMessages only={['locks']}>
        <LockProviderForm tenant={staff.current.tenantName} current={provider} />
        {/* One element in both states, so the import's result survives the page refreshing with new locks. */}
        <div className={empty ? 'empty-state' : styles.toolbar} data-testid={empty ? 'locks-empty' : 'locks-toolbar'}>
          {empty && <p>{t('locks.empty')}</p>}
          <ImportLocksButton primary={empty} />
          {provider === 'simulator' && simulatedLocksOffered() && <AddSimulatedLockButton />}
          {provider !== 'simulator' && <AddLockByDeviceForm />}
        </div>
        {!empty && (
          <ul className={styles.list} data-testid="lock-list">
            {locks.map((lock) => (
              <li key={lock.id}>
                <LockCard lock={lock} rooms={roomChoices} t={t} zone={zone} />
              </li>
            ))}
          </ul>
        )}
      </ClientMessages>
    </>
  );
}
