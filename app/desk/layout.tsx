import type { ReactNode } from 'react';
import { SiteHeader } from '@/components/site-header';
import { requireStaff } from '@/app/_server/staff';

/** The front desk shell: signed-in staff with `desk.view` only. */
export default async function DeskLayout({ children }: { children: ReactNode }) {
  const staff = await requireStaff('desk.view', '/desk');
  return (
    <>
      <SiteHeader staff={staff} section="desk" />
      <main id="main" tabIndex={-1} className="page">
        {children}
      </main>
    </>
  );
}
