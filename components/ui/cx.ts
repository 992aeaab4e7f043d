/** Joins class names, skipping the empty ones (a variant that adds nothing, an absent `className`). */
export function cx(...names: (string | false | null | undefined)[]): string {
  return names.filter(Boolean).join(' ');
}
