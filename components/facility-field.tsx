import { Field, Select } from '@/components/ui/field';

type Props = {
  id: string;
  label: string;
  facilities: readonly { id: string; name: string }[];
  /** The facility shown chosen ('' for the `all` option). */
  defaultValue: string;
  /** An option for every facility at once, named so (value ''). */
  all?: string;
};

/** A GET form's facility picker (`name="facility"`): the desk's booking and grid pages, the guest register's. */
export function FacilityField({ id, label, facilities, defaultValue, all }: Props) {
  return (
    <Field id={id} label={label}>
      {(control) => (
        <Select {...control} name="facility" defaultValue={defaultValue}>
          {all !== undefined && <option value="">{all}</option>}
          {facilities.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
            </option>
          ))}
        </Select>
      )}
    </Field>
  );
}
