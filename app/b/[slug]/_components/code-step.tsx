'use client';

import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Field, Input } from '@/components/ui/field';
import { fill } from '@/lib/i18n/slots';
import { errorCode, errorText } from './api';
import type { BookingWords } from './booking-words';

type Props = {
  /** Where the code went; null when the page was reloaded and the details are gone. */
  email: string | null;
  onConfirm: (code: string) => void;
  confirming: boolean;
  confirmError: unknown;
  /** Submits the booking request again (a new code); null when the details are not known any more. */
  onResend: (() => void) | null;
  resending: boolean;
  resendError: unknown;
  resentTo: string | null;
  /** Where the hold ends, once confirmed with an online payment: the page is on its way to Stripe. */
  redirect: { url: string; holdEnds: string | null } | null;
  onStartAgain: () => void;
  onPickAnother: () => void;
  words: BookingWords;
};

/**
 * The emailed 6-digit code: one field the phone fills from the mail (one-time-code), a new code on
 * request, and the three answers the guest can act on: a wrong code, an expired request (start
 * again) and a room someone else just took (pick another).
 */
export function CodeStep(props: Props) {
  const { email, confirming, confirmError, resending, resentTo, redirect, words } = props;
  const w = words.code;
  const id = useId();
  const [code, setCode] = useState('');
  const [formatError, setFormatError] = useState(false);
  const failed = errorCode(confirmError);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!/^\d{6}$/.test(code)) return setFormatError(true);
    setFormatError(false);
    props.onConfirm(code);
  };

  const fieldError = formatError ? w.invalidFormat : failed === 'invalid_code' ? w.invalid : undefined;

  if (redirect)
    return (
      <div className="book-redirect" role="status" data-testid="code-redirect">
        <p>
          <span className="spinner" aria-hidden="true" />{' '}
          {redirect.holdEnds ? fill(w.held, { time: redirect.holdEnds }) : ''}
        </p>
        <a className="guest-link" href={redirect.url}>
          {w.toPayment}
        </a>
      </div>
    );

  return (
    <div className="book-code">
      <p data-testid="code-sent">
        {resentTo ? fill(w.resent, { email: resentTo }) : email ? fill(w.sent, { email }) : w.sentUnknown}
      </p>
      <p className="guest-hint">{w.expires}</p>
      <form className="form" noValidate onSubmit={submit}>
        <Field id={`${id}-code`} label={w.label} error={fieldError}>
          {(control) => (
            <Input
              {...control}
              mono
              className="book-code__input"
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]{6}"
              maxLength={6}
              value={code}
              onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
              data-testid="code-input"
            />
          )}
        </Field>
        {failed === 'gone' && (
          <div className="book-error" role="alert" data-testid="code-gone">
            <p>{w.gone}</p>
            <Button onClick={props.onStartAgain}>{w.startAgain}</Button>
          </div>
        )}
        {failed === 'room_unavailable' && (
          <div className="book-error" role="alert" data-testid="code-room-taken">
            <p>{w.roomTaken}</p>
            <Button onClick={props.onPickAnother}>{w.pickAnother}</Button>
          </div>
        )}
        {failed === 'too_many_holds' && (
          <p className="book-error" role="alert" data-testid="code-too-many-holds">
            {w.tooManyHolds}
          </p>
        )}
        {confirmError !== null &&
          failed !== 'invalid_code' &&
          failed !== 'gone' &&
          failed !== 'room_unavailable' &&
          failed !== 'too_many_holds' && (
            <p className="book-error" role="alert">
              {errorText(confirmError, words.errors)}
            </p>
          )}
        {/* The field's own error is announced here; the field keeps it as its description. */}
        <p className="visually-hidden" role="alert">
          {fieldError ?? ''}
        </p>
        <Button
          type="submit"
          variant="primary"
          size="large"
          block
          loading={confirming}
          loadingLabel={w.confirming}
          disabled={failed === 'gone'}
        >
          {w.submit}
        </Button>
      </form>
      {props.onResend && (
        <div className="book-resend">
          <Button variant="ghost" onClick={props.onResend} loading={resending} loadingLabel={w.resending}>
            {w.resend}
          </Button>
          {props.resendError !== null && (
            <p className="book-error" role="alert">
              {errorText(props.resendError, words.errors)}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
