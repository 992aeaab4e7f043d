import { Select } from '@/components/ui/field';
import { useTranslations } from 'next-intl';
import { Button } from '@/components/ui/button';
import type { StaffContext } from '@/lib/auth/staff';

type Props = {
  currentTenantId: string;
  returnTo: string;
  memberships: StaffContext['memberships'];
  /** app/_server/actions.ts's `switchTenant`. */
  action: (form: FormData) => Promise<void>;
};

/** A labelled tenant picker posting to `action` (`switchTenant`, which accepts only the user's own memberships). */
export function TenantSwitcher({ currentTenantId, returnTo, memberships, action }: Props) {
  const t = useTranslations();
  return (
    <form action={action} className="inline-form">
      <input type="hidden" name="returnTo" value={returnTo} />
      <label htmlFor="tenant-switcher" className="inline-form__label">
        {t('tenantSwitcher.label')}
      </label>
      <Select compact id="tenant-switcher" name="tenantId" defaultValue={currentTenantId}>
        {memberships.map((m) => (
          <option key={m.tenantId} value={m.tenantId}>
            {`${m.tenantName} (${t(`role.${m.role}`)})`}
          </option>
        ))}
      </Select>
      <Button size="compact" type="submit">
        {t('tenantSwitcher.submit')}
      </Button>
    </form>
  );
}
