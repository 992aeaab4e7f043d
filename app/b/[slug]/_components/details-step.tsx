'use client';

import { useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Field, FieldError, Input } from '@/components/ui/field';
import { errorCode, errorText } from './api';
import type { BookingWords } from './booking-words';
import type { GuestDetails } from './types';

type Errors = Partial<Record<'name' | 'email' | 'phone' | 'acceptTerms', string>>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9][0-9 ()-]{4,30}$/;

/** The guest's details checked as the guest types them: what each field still needs, in words. */
export function validateDetails(details: GuestDetails, words: BookingWords['details']): Errors {
  const errors: Errors = {};
  if (!details.name.trim()) errors.name = words.nameRequired;
  if (!EMAIL.test(details.email.trim())) errors.email = words.emailInvalid;
  if (details.phone.trim() && !PHONE.test(details.phone.trim())) errors.phone = words.phoneInvalid;
  if (!details.acceptTerms) errors.acceptTerms = words.termsRequired;
  return errors;
}

type Props = {
  details: GuestDetails;
  onChange: (details: GuestDetails) => void;
  onSubmit: () => void;
  submitting: boolean;
  error: unknown;
  termsText: string;
  privacyText: string;
  /** The type's last room went while the guest typed: back to the room list. */
  onPickAnother: () => void;
  words: BookingWords;
};

/**
 * Name, email and an optional phone, each checked when the guest leaves it and again on submit, and
 * the facility's terms and privacy policy (readable in place) to accept before a code is sent.
 */
export function DetailsStep(props: Props) {
  const { details, onChange, onSubmit, submitting, error, termsText, privacyText, words } = props;
  const id = useId();
  const w = words.details;
  const [touched, setTouched] = useState<Partial<Record<keyof GuestDetails, boolean>>>({});
  const formRef = useRef<HTMLFormElement>(null);
  const errors = validateDetails(details, w);
  const shown = (field: keyof Errors) => (touched[field] ? errors[field] : undefined);
  const set = <K extends keyof GuestDetails>(field: K, value: GuestDetails[K]) =>
    onChange({ ...details, [field]: value });
  const touch = (field: keyof GuestDetails) => setTouched((t) => ({ ...t, [field]: true }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched({ name: true, email: true, phone: true, acceptTerms: true });
    const first = (['name', 'email', 'phone', 'acceptTerms'] as const).find((f) => errors[f]);
    if (first) {
      formRef.current?.querySelector<HTMLElement>(`[data-field="${first}"]`)?.focus();
      return;
    }
    onSubmit();
  };

  const failure = error ? errorText(error, words.errors) : null;
  const code = errorCode(error);

  return (
    <form ref={formRef} className="form book-details" noValidate onSubmit={submit}>
      <Field id={`${id}-name`} label={w.name} error={shown('name')}>
        {(control) => (
          <Input
            {...control}
            data-field="name"
            name="name"
            autoComplete="name"
            required
            maxLength={200}
            value={details.name}
            onChange={(e) => set('name', e.target.value)}
            onBlur={() => touch('name')}
          />
        )}
      </Field>
      <Field id={`${id}-email`} label={w.email} hint={w.emailHint} error={shown('email')}>
        {(control) => (
          <Input
            {...control}
            data-field="email"
            name="email"
            type="email"
            inputMode="email"
            autoComplete="email"
            autoCapitalize="none"
            spellCheck={false}
            required
            maxLength={320}
            value={details.email}
            onChange={(e) => set('email', e.target.value)}
            onBlur={() => touch('email')}
          />
        )}
      </Field>
      <Field id={`${id}-phone`} label={w.phone} error={shown('phone')}>
        {(control) => (
          <Input
            {...control}
            data-field="phone"
            name="phone"
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            maxLength={40}
            value={details.phone}
            onChange={(e) => set('phone', e.target.value)}
            onBlur={() => touch('phone')}
          />
        )}
      </Field>

      <div className="book-terms">
        <details className="book-terms__text">
          <summary>{w.readTerms}</summary>
          <div className="book-terms__body" data-testid="terms-text">
            {termsText}
          </div>
        </details>
        <details className="book-terms__text">
          <summary>{w.readPrivacy}</summary>
          <div className="book-terms__body" data-testid="privacy-text">
            {privacyText}
          </div>
        </details>
        <label className="book-check">
          <input
            type="checkbox"
            data-field="acceptTerms"
            name="acceptTerms"
            checked={details.acceptTerms}
            aria-invalid={shown('acceptTerms') ? true : undefined}
            aria-describedby={shown('acceptTerms') ? `${id}-terms-error` : undefined}
            onChange={(e) => {
              set('acceptTerms', e.target.checked);
              touch('acceptTerms');
            }}
          />
          <span>{w.terms}</span>
        </label>
        {shown('acceptTerms') && <FieldError id={`${id}-terms-error`}>{shown('acceptTerms')}</FieldError>}
      </div>

      {code === 'room_unavailable' ? (
        <div className="book-error" role="alert" data-testid="details-room-taken">
          <p>{words.code.roomTaken}</p>
          <Button onClick={props.onPickAnother}>{words.code.pickAnother}</Button>
        </div>
      ) : (
        failure && (
          <p className="book-error" role="alert" data-testid="details-error">
            {failure}
          </p>
        )
      )}
      <Button type="submit" variant="primary" size="large" block loading={submitting} loadingLabel={w.sending}>
        {w.submit}
      </Button>
    </form>
  );
}
