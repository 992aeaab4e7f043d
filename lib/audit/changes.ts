/**
 * What an update changed, as `*.updated` audit rows keep it: the names of the fields of `after` whose
 * value differs from `before`, and those fields' values before and after.
 */
export function changesOf<T extends object>(before: T, after: Partial<T>) {
  const changed = (Object.keys(after) as (keyof T & string)[]).filter(
    (key) => after[key] !== undefined && before[key] !== after[key],
  );
  return {
    changed,
    before: Object.fromEntries(changed.map((key) => [key, before[key]])),
    after: Object.fromEntries(changed.map((key) => [key, after[key]])),
  };
}
