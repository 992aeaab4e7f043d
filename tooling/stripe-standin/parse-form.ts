/** A form value as the stripe SDK encodes it: strings, nested objects, and lists. */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

/** Bracketed keys the SDK may send (`line_items[0][price_data][unit_amount]`) nest no deeper than this. */
const MAX_DEPTH = 8;

/**
 * Parses an `application/x-www-form-urlencoded` body with the SDK's nested keys into objects:
 * `metadata[bookingGroupId]=g` → `{ metadata: { bookingGroupId: 'g' } }`, and an object whose keys are
 * 0, 1, … (or `expand[]` pushes) → a list. Keys deeper than MAX_DEPTH, or that would reach into an
 * object's prototype, are dropped.
 */
export function parseForm(body: string): FormObject {
  const root: FormObject = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = keyPath(key);
    if (!path || path.some((segment) => segment === '__proto__' || segment === 'constructor')) continue;
    let node: FormObject = root;
    path.forEach((segment, i) => {
      const name = segment === '' ? String(Object.keys(node).length) : segment;
      if (i === path.length - 1) {
        node[name] = value;
        return;
      }
      const next = node[name];
      if (typeof next === 'object' && !Array.isArray(next)) node = next;
      else node = node[name] = {};
    });
  }
  return toLists(root) as FormObject;
}

function keyPath(key: string): string[] | null {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match) return null;
  const rest = [...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!);
  const path = [match[1]!, ...rest];
  return path.length <= MAX_DEPTH ? path : null;
}

function toLists(value: FormValue): FormValue {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const converted = Object.fromEntries(keys.map((k) => [k, toLists(value[k]!)]));
  const isList = keys.length > 0 && keys.every((k, i) => k === String(i));
  return isList ? keys.map((k) => converted[k]!) : converted;
}

/** Flattens the parsed form back into `key[sub]` → value pairs (what the test stub recorded). */
export function flattenForm(form: FormObject): Record<string, string> {
  const flat: Record<string, string> = {};
  const walk = (value: FormValue, prefix: string) => {
    if (typeof value === 'string') flat[prefix] = value;
    else if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${prefix}[${i}]`));
    else for (const [k, v] of Object.entries(value)) walk(v, prefix ? `${prefix}[${k}]` : k);
  };
  walk(form, '');
  return flat;
}
