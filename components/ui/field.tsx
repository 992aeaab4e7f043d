import type {
  HTMLAttributes,
  InputHTMLAttributes,
  ReactNode,
  Ref,
  SelectHTMLAttributes,
  TextareaHTMLAttributes,
} from 'react';
import { cx } from './cx';
import styles from './field.module.css';

/** What a control needs from its field: its id, and the ids of the hint and error that describe it. */
export type FieldControlProps = { id: string; 'aria-describedby'?: string; 'aria-invalid'?: true };

type FieldProps = {
  /** The control's id; the label points at it, the hint and error get `${id}-hint` and `${id}-error`. */
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  /** Shown under the control, which is then marked invalid and described by it. */
  error?: ReactNode;
  /** Ids of further elements describing the control (a form-level error, a shared hint). */
  describedBy?: string;
  className?: string;
  /** The control, given the props that tie it to the label, hint and error. */
  children: (control: FieldControlProps) => ReactNode;
};

/** A label, one control, an optional hint and an optional error, wired together for assistive technology. */
export function Field({ id, label, hint, error, describedBy, className, children }: FieldProps) {
  const hintId = hint !== undefined && hint !== null ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedByIds = [hintId, describedBy, errorId].filter(Boolean).join(' ');
  return (
    <div className={cx(styles.field, className)}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      {children({
        id,
        ...(describedByIds ? { 'aria-describedby': describedByIds } : {}),
        ...(error ? { 'aria-invalid': true } : {}),
      })}
      {hintId && (
        <p id={hintId} className={styles.hint}>
          {hint}
        </p>
      )}
      {errorId && (
        <p id={errorId} className={styles.error}>
          {error}
        </p>
      )}
    </div>
  );
}

type ControlLook = { mono?: boolean };

/** What an account's email field is everywhere (sign-in, a reset request): the password manager's username. */
export const EMAIL_INPUT = {
  name: 'email',
  type: 'email',
  autoComplete: 'username',
  inputMode: 'email',
  autoCapitalize: 'none',
  spellCheck: false,
  required: true,
  maxLength: 320,
} as const satisfies InputHTMLAttributes<HTMLInputElement>;

export function Input({
  className,
  mono,
  ref,
  ...props
}: InputHTMLAttributes<HTMLInputElement> & ControlLook & { ref?: Ref<HTMLInputElement> }) {
  return <input ref={ref} {...props} className={cx(styles.control, mono && styles.mono, className)} />;
}

export function Select({
  className,
  compact,
  ...props
}: SelectHTMLAttributes<HTMLSelectElement> & { compact?: boolean }) {
  return <select {...props} className={cx(styles.control, compact && styles.compact, className)} />;
}

export function Textarea({ className, mono, ...props }: TextareaHTMLAttributes<HTMLTextAreaElement> & ControlLook) {
  return <textarea {...props} className={cx(styles.control, mono && styles.mono, className)} />;
}

/** A hint that describes more than one control (a group's, a pair of dates'): give it an id to point at. */
export function FieldHint({ className, ...props }: HTMLAttributes<HTMLParagraphElement>) {
  return <p {...props} className={cx(styles.hint, className)} />;
}

/** An error beside a group of controls, outside a single `Field`. */
export function FieldError({ className, ...props }: HTMLAttributes<HTMLParagraphElement>) {
  return <p {...props} className={cx(styles.error, className)} />;
}
