import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';
import type { ActionState } from './action-state';
import { Field, Input, Select, Textarea } from './field';

/** Any form's `useActionState` state, as the fields below read it. */
export type FormState = ActionState<unknown, Record<string, 'text'>>;

/** The message a refused answer has for one field (the schema's, or the body's refusal naming it). */
export function fieldError(state: FormState, name: string): string | undefined {
  if (!state || state.ok) return undefined;
  return state.error.fieldErrors?.[name] ?? (state.error.field === name ? state.error.message : undefined);
}

/** What the field showed: the typed value of a refused answer, else `fallback` (the stored value). */
export function typedValue(state: FormState, name: string, fallback: string | null | undefined): string {
  if (state && !state.ok) return (state.values as Record<string, string | undefined>)[name] ?? '';
  return fallback ?? '';
}

type Bound = {
  /** The form's `useActionState` state: the field shows its refusal and keeps what was typed. */
  state: FormState;
  name: string;
  /** The control's id (the label points at it). */
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  /** The stored value, shown until a refusal brings back what was typed. */
  stored?: string | number | null;
};

const shown = (state: FormState, name: string, stored: string | number | null | undefined) =>
  typedValue(state, name, stored === null || stored === undefined ? '' : String(stored));

/**
 * A labelled input bound to an action's answer: its refusal message under it (and the input marked
 * invalid), the typed value kept after a refusal. `echo={false}` for what is never sent back (a secret).
 */
export function ActionInput({
  state,
  name,
  id,
  label,
  hint,
  stored,
  echo = true,
  ...input
}: Bound & { echo?: boolean } & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'name' | 'defaultValue'> & {
    mono?: boolean;
  }) {
  return (
    <Field id={id} label={label} hint={hint} error={fieldError(state, name)}>
      {(control) => (
        <Input {...control} name={name} {...(echo ? { defaultValue: shown(state, name, stored) } : {})} {...input} />
      )}
    </Field>
  );
}

/** A labelled textarea bound to an action's answer, as `ActionInput`. */
export function ActionTextarea({
  state,
  name,
  id,
  label,
  hint,
  stored,
  ...textarea
}: Bound & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'name' | 'defaultValue'> & { mono?: boolean }) {
  return (
    <Field id={id} label={label} hint={hint} error={fieldError(state, name)}>
      {(control) => <Textarea {...control} name={name} defaultValue={shown(state, name, stored)} {...textarea} />}
    </Field>
  );
}

/** A labelled select bound to an action's answer, as `ActionInput`; its options are the children. */
export function ActionSelect({
  state,
  name,
  id,
  label,
  hint,
  stored,
  children,
  ...select
}: Bound & Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'name' | 'defaultValue'>) {
  return (
    <Field id={id} label={label} hint={hint} error={fieldError(state, name)}>
      {(control) => (
        <Select {...control} name={name} defaultValue={shown(state, name, stored)} {...select}>
          {children}
        </Select>
      )}
    </Field>
  );
}
