'use client';

import { useTranslations } from 'next-intl';
import { useActionState, useEffect, useId, useRef } from 'react';
import { createStaffCodeAction } from '@/app/desk/stay-actions';
import { Button } from '@/components/ui/button';
import { Field, FieldHint, Input, Select } from '@/components/ui/field';
import { FormError, Notice } from '@/components/ui/notice';

const PURPOSES = ['housekeeping', 'maintenance', 'inspection'] as const;

/**
 * "New staff code" for one room: a label, a purpose and the work window — one datetime-local
 * field per bound, in the facility's zone. The new PIN is shown once, to hand over; focus moves to it.
 */
export function StaffCodeForm({
  roomId,
  room,
  timeZone,
  startsLocal,
  endsLocal,
}: {
  roomId: string;
  room: string;
  timeZone: string;
  startsLocal: string;
  endsLocal: string;
}) {
  const t = useTranslations('staffCodes');
  const [state, action, pending] = useActionState(createStaffCodeAction, null);
  const id = useId();
  const resultRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (state?.ok) resultRef.current?.focus();
  }, [state]);
  const failed = state && !state.ok ? state : null;
  const value = (name: 'label' | 'purpose' | 'startsAt' | 'endsAt', fallback: string) =>
    failed ? String(failed.values[name] ?? fallback) : fallback;
  const invalid = (name: string) => (failed?.error.field === name ? true : undefined);
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('create.title')}</h2>
      {state?.ok && (
        <div ref={resultRef} tabIndex={-1} data-testid="staff-code-created">
          <Notice tone="success" variant="inline">
            {state.data.pin
              ? t('create.done', { label: state.data.label, room, pin: state.data.pin })
              : t('create.doneNoPin', { label: state.data.label, room })}
          </Notice>
        </div>
      )}
      <form action={action} noValidate className="form" key={state?.ok ? `ok-${state.attempt}` : 'form'}>
        <input type="hidden" name="roomId" value={roomId} />
        <Field id={`${id}-label`} label={t('create.label')} hint={t('create.labelHint')} describedBy={`${id}-error`}>
          {(control) => (
            <Input
              {...control}
              name="label"
              required
              maxLength={100}
              autoComplete="off"
              defaultValue={value('label', '')}
              key={`l-${failed?.attempt ?? 0}`}
              aria-invalid={invalid('label')}
            />
          )}
        </Field>
        <Field id={`${id}-purpose`} label={t('create.purpose')}>
          {(control) => (
            <Select
              {...control}
              name="purpose"
              defaultValue={value('purpose', 'housekeeping')}
              key={`p-${failed?.attempt ?? 0}`}
            >
              {PURPOSES.map((p) => (
                <option key={p} value={p}>
                  {t(`purpose.${p}`)}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <div className="field-row">
          <Field id={`${id}-starts`} label={t('create.startsAt')} describedBy={`${id}-zone ${id}-error`}>
            {(control) => (
              <Input
                {...control}
                name="startsAt"
                type="datetime-local"
                required
                defaultValue={value('startsAt', startsLocal)}
                key={`s-${failed?.attempt ?? 0}`}
                aria-invalid={invalid('startsAt')}
              />
            )}
          </Field>
          <Field id={`${id}-ends`} label={t('create.endsAt')} describedBy={`${id}-zone ${id}-error`}>
            {(control) => (
              <Input
                {...control}
                name="endsAt"
                type="datetime-local"
                required
                defaultValue={value('endsAt', endsLocal)}
                key={`e-${failed?.attempt ?? 0}`}
                aria-invalid={invalid('endsAt')}
              />
            )}
          </Field>
        </div>
        <FieldHint id={`${id}-zone`}>{t('create.hint', { timeZone })}</FieldHint>
        <FormError id={`${id}-error`} data-testid="staff-code-error">
          {failed?.error.message}
        </FormError>
        <div>
          <Button type="submit" variant="primary" disabled={pending} aria-label={t('create.submitNamed', { room })}>
            {pending ? t('create.pending') : t('create.submit')}
          </Button>
        </div>
      </form>
    </section>
  );
}
