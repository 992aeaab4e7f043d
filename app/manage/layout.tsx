import type { ReactNode } from 'react';
import { SiteHeader } from '@/components/site-header';
import { HEADER_ACTIONS } from '@/app/_server/header-actions';
import { requireStaff } from '@/app/_server/staff';

/** The management shell: signed-in staff with `manage.view` only. */
export default async function ManageLayout({ children }: { children: ReactNode }) {
  const staff = await requireStaff('manage.view', '/manage');
  return (
    <>
      <SiteHeader actions={HEADER_ACTIONS} staff={staff} section="manage" />
      <main id="main" tabIndex={-1} className="page">
        {children}
      </main>
    </>
  );
}
