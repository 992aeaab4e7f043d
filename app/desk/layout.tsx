import type { ReactNode } from 'react';
import { SiteHeader } from '@/components/site-header';
import { HEADER_ACTIONS } from '@/app/_server/header-actions';
import { requireStaff } from '@/app/_server/staff';

/** The front desk shell: signed-in staff with `desk.view` only. */
export default async function DeskLayout({ children }: { children: ReactNode }) {
  const staff = await requireStaff('desk.view', '/desk');
  return (
    <>
      <SiteHeader actions={HEADER_ACTIONS} staff={staff} section="desk" />
      <main id="main" tabIndex={-1} className="page">
        {children}
      </main>
    </>
  );
}
