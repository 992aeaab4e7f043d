'use client';

import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useTranslations } from 'next-intl';
import { Button, type ButtonVariant } from '@/components/ui/button';
import { FormError, Notice } from '@/components/ui/notice';

/** The last answer of a desk action (an `ActionResult` of app/_server/action.ts). */
export type PanelState<T> = { attempt: number } & (
  | { ok: true; data: T }
  | { ok: false; error: { message: string; field?: string }; values: Record<string, string | string[]> }
);

type Props<T> = {
  /** What the opening button says ("Check out"); its accessible name is `named` ("Check out Kenji Sato · Room 101"). */
  label: string;
  named: string;
  /** The sentence that names room and guest before anything changes. */
  confirm: string;
  submit: string;
  submitNamed: string;
  pending: string;
  /** Whether the change can be made now; a panel that cannot keeps showing its last result. */
  available: boolean;
  variant?: ButtonVariant;
  /** The form's action (from useActionState) and its last answer. */
  action: (formData: FormData) => void;
  state: PanelState<T> | null;
  isPending: boolean;
  /** Hidden inputs and fields, given the id of the form-level error to point at. */
  fields?: (errorId: string) => ReactNode;
  hidden: Record<string, string>;
  /** The sentence shown (and focused) once it worked. */
  done: (data: T) => ReactNode;
  testId: string;
};

/**
 * One stay change at the desk: a button that opens the change, a confirmation naming room and
 * guest, the fields the change needs, and its outcome, which takes the focus once it arrives
 * (the button that was pressed may be gone once the page shows the new state).
 */
export function StayActionPanel<T>(props: Props<T>) {
  const t = useTranslations('stay');
  // The answer count when the change was opened: a successful answer after it closes the form.
  const [openedAt, setOpenedAt] = useState<number | null>(null);
  const resultRef = useRef<HTMLDivElement>(null);
  const id = useId();
  const { state } = props;
  const shown = state;
  const open = openedAt !== null && !(state?.ok && state.attempt > openedAt);
  const setOpen = (value: boolean) => setOpenedAt(value ? (state?.attempt ?? 0) : null);

  useEffect(() => {
    if (state?.ok) resultRef.current?.focus();
  }, [state]);

  const failed = shown && !shown.ok ? shown : null;
  if (!props.available && !shown?.ok) return null;
  return (
    <div className="stay-action" data-testid={props.testId}>
      {shown?.ok && (
        <div ref={resultRef} tabIndex={-1} data-testid={`${props.testId}-result`}>
          <Notice tone="success" variant="inline">
            {props.done(shown.data)}
          </Notice>
        </div>
      )}
      {props.available && !open && (
        <Button
          variant={props.variant ?? 'secondary'}
          size="compact"
          aria-label={props.named}
          aria-expanded={false}
          onClick={() => setOpen(true)}
        >
          {props.label}
        </Button>
      )}
      {props.available && open && (
        <form action={props.action} noValidate className="form stay-action__form" aria-label={props.named}>
          {Object.entries(props.hidden).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <p id={`${id}-confirm`} className="stay-action__confirm">
            {props.confirm}
          </p>
          {props.fields?.(`${id}-error`)}
          <FormError id={`${id}-error`} data-testid={`${props.testId}-error`}>
            {failed?.error.message}
          </FormError>
          <div className="stay-action__buttons">
            <Button
              type="submit"
              variant={props.variant ?? 'primary'}
              disabled={props.isPending}
              aria-label={props.submitNamed}
              aria-describedby={`${id}-confirm`}
            >
              {props.isPending ? props.pending : props.submit}
            </Button>
            <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
              {t('cancel')}
            </Button>
          </div>
        </form>
      )}
    </div>
  );
}
