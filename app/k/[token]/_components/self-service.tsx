'use client';

import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import type { SelfServiceWords } from './guest-key-words';

type Refusal = keyof SelfServiceWords['checkInRefused'];

/** POSTs a guest action; its error code when it was refused (`failed` when there was no usable answer). */
async function postGuest(token: string, action: 'check-in' | 'check-out'): Promise<string | null> {
  try {
    const response = await fetch(`/api/guest/${encodeURIComponent(token)}/${action}`, {
      method: 'POST',
      cache: 'no-store',
    });
    if (response.ok) return null;
    const body = (await response.json().catch(() => null)) as { error?: { code?: string } } | null;
    return body?.error?.code ?? 'failed';
  } catch {
    return 'failed';
  }
}

/**
 * The self check-in button, shown once check-in is open: one request at a time (a double tap sends one;
 * the server gives a second phone the same key anyway), the outcome said where a screen reader hears it.
 * `onDone` asks the page's poll for the key at once.
 */
export function CheckInButton({
  token,
  words,
  onDone,
}: {
  token: string;
  words: SelfServiceWords;
  onDone: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState<Refusal | null>(null);
  const result = useRef<HTMLParagraphElement>(null);

  const checkIn = async () => {
    if (busy) return;
    setBusy(true);
    setRefused(null);
    const code = await postGuest(token, 'check-in');
    setBusy(false);
    if (code === null) return onDone();
    setRefused(code in words.checkInRefused ? (code as Refusal) : 'failed');
    onDone();
  };
  useEffect(() => {
    if (refused) result.current?.focus();
  }, [refused]);

  return (
    <div className="guest-self-service">
      <Button
        variant="primary"
        size="large"
        block
        onClick={() => void checkIn()}
        loading={busy}
        loadingLabel={words.checkingIn}
        data-testid="guest-check-in"
      >
        {words.checkInButton}
      </Button>
      <p
        ref={result}
        tabIndex={-1}
        role="alert"
        className={refused ? 'guest-note' : undefined}
        data-testid="guest-check-in-result"
      >
        {refused ? words.checkInRefused[refused] : ''}
      </p>
    </div>
  );
}

/**
 * Early check-out with a confirm step, so one stray tap never ends a stay: the first button opens the
 * question (focus moves to it), "yes" checks out, "no" puts focus back. Once checked out `onDone`
 * renders the page again: the server then shows the ended page.
 */
export function CheckOut({ token, words, onDone }: { token: string; words: SelfServiceWords; onDone: () => void }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const question = useRef<HTMLHeadingElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);

  useEffect(() => {
    if (asking) question.current?.focus();
    else if (wasAsking.current) opener.current?.focus();
    wasAsking.current = asking;
  }, [asking]);

  const checkOut = async () => {
    if (busy) return;
    setBusy(true);
    setFailed(false);
    const code = await postGuest(token, 'check-out');
    setBusy(false);
    if (code === null) return onDone();
    setFailed(true);
  };

  return (
    <section
      className="guest-check-out"
      aria-labelledby="guest-check-out-heading"
      data-testid="guest-check-out-section"
    >
      <h2 id="guest-check-out-heading" className="guest-info__heading">
        {words.checkOutHeading}
      </h2>
      {asking ? (
        <div role="group" aria-labelledby="guest-check-out-question" className="guest-confirm">
          <h3 id="guest-check-out-question" ref={question} tabIndex={-1} className="guest-confirm__title">
            {words.checkOutConfirmTitle}
          </h3>
          <p className="guest-text">{words.checkOutConfirmBody}</p>
          <Button
            variant="danger"
            size="large"
            block
            onClick={() => void checkOut()}
            loading={busy}
            loadingLabel={words.checkingOut}
            data-testid="guest-check-out-confirm"
          >
            {words.checkOutConfirm}
          </Button>
          <Button block onClick={() => setAsking(false)} disabled={busy} data-testid="guest-check-out-cancel">
            {words.checkOutCancel}
          </Button>
        </div>
      ) : (
        <Button ref={opener} block onClick={() => setAsking(true)} data-testid="guest-check-out-start">
          {words.checkOutButton}
        </Button>
      )}
      <p role="alert" className={failed ? 'guest-note' : undefined} data-testid="guest-check-out-result">
        {failed ? words.checkOutFailed : ''}
      </p>
    </section>
  );
}
