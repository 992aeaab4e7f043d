import { Select } from '@/components/ui/field';
import { switchTenant } from '@/app/_server/actions';
import { Button } from '@/components/ui/button';

type Props = {
  currentTenantId: string;
  returnTo: string;
  label: string;
  submitLabel: string;
  options: readonly { value: string; label: string }[];
};

/** A labelled tenant picker posting to `switchTenant`, which accepts only the user's own memberships. */
export function TenantSwitcher({ currentTenantId, returnTo, label, submitLabel, options }: Props) {
  return (
    <form action={switchTenant} className="inline-form">
      <input type="hidden" name="returnTo" value={returnTo} />
      <label htmlFor="tenant-switcher" className="inline-form__label">
        {label}
      </label>
      <Select compact id="tenant-switcher" name="tenantId" defaultValue={currentTenantId}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </Select>
      <Button size="compact" type="submit">
        {submitLabel}
      </Button>
    </form>
  );
}
