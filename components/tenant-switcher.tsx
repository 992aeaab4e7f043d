import { Select } from '@/components/ui/field';
import { useTranslations } from 'next-intl';
import { switchTenant } from '@/app/_server/actions';
import { Button } from '@/components/ui/button';
import type { StaffContext } from '@/lib/auth/staff';

type Props = {
  currentTenantId: string;
  returnTo: string;
  memberships: StaffContext['memberships'];
};

/** A labelled tenant picker posting to `switchTenant`, which accepts only the user's own memberships. */
export function TenantSwitcher({ currentTenantId, returnTo, memberships }: Props) {
  const t = useTranslations();
  return (
    <form action={switchTenant} className="inline-form">
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
