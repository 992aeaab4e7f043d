import { switchTenant } from '@/app/_server/actions';

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
      <select id="tenant-switcher" name="tenantId" defaultValue={currentTenantId} className="select select--compact">
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <button type="submit" className="button button--secondary button--compact">
        {submitLabel}
      </button>
    </form>
  );
}
