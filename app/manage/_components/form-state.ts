import type { ActionState } from '@/app/_server/action';

/** The message a refused answer has for one field (the schema's, or the body's refusal naming it). */
export function fieldError(state: ActionState<unknown, Record<string, 'text'>>, name: string): string | undefined {
  if (!state || state.ok) return undefined;
  return state.error.fieldErrors?.[name] ?? (state.error.field === name ? state.error.message : undefined);
}

/** What the field showed: the typed value of a refused answer, else `fallback` (the stored value). */
export function typedValue(
  state: ActionState<unknown, Record<string, 'text'>>,
  name: string,
  fallback: string | null | undefined,
): string {
  if (state && !state.ok) return (state.values as Record<string, string | undefined>)[name] ?? '';
  return fallback ?? '';
}
