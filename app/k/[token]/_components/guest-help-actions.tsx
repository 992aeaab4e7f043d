'use client';

import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { fill } from '@/lib/i18n/slots';
import type { GuestHelpWords } from './guest-help-words';

type MessageState = 'idle' | 'sending' | 'sent' | 'failed' | 'tooMany' | 'empty' | 'tooLong';
type Backup = { pin: string | null } | null;
type ReportState = { kind: 'idle' | 'confirming' | 'sending' | 'failed' } | { kind: 'reported'; backup: Backup };

const MAX = 2000;

/**
 * The guest's two ways to the desk that need the page's script: a message (sent, or why not), and
 * "my code does not work" behind a confirm, answered with a backup code where the lock has a pool.
 * Words come from the server (decision 013).
 */
export function GuestHelpActions({ token, words }: { token: string; words: GuestHelpWords }) {
  const base = `/api/guest/${encodeURIComponent(token)}`;
  const [body, setBody] = useState('');
  const [message, setMessage] = useState<MessageState>('idle');
  const [report, setReport] = useState<ReportState>({ kind: 'idle' });

  const send = async (event: FormEvent) => {
    event.preventDefault();
    const text = body.trim();
    if (text === '') return setMessage('empty');
    if (text.length > MAX) return setMessage('tooLong');
    setMessage('sending');
    try {
      const response = await fetch(`${base}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ body: text }),
        cache: 'no-store',
      });
      if (response.status === 201) {
        setBody('');
        return setMessage('sent');
      }
      setMessage(response.status === 429 ? 'tooMany' : 'failed');
    } catch {
      setMessage('failed');
    }
  };

  const tellDesk = async () => {
    setReport({ kind: 'sending' });
    try {
      const response = await fetch(`${base}/code-problem`, { method: 'POST', cache: 'no-store' });
      if (!response.ok) return setReport({ kind: 'failed' });
      const { data } = (await response.json()) as { data: { reported: boolean; backup: Backup } };
      setReport({ kind: 'reported', backup: data.backup });
    } catch {
      setReport({ kind: 'failed' });
    }
  };

  const messageNote: Partial<Record<MessageState, string>> = {
    sent: words.sent,
    failed: words.failed,
    tooMany: words.tooMany,
    empty: words.empty,
    tooLong: words.tooLong,
  };
  const backupPin = report.kind === 'reported' ? report.backup?.pin : null;

  return (
    <>
      <div className="guest-help__code" data-testid="guest-code-problem">
        {report.kind === 'confirming' ? (
          <div role="group" aria-labelledby="guest-code-confirm" className="guest-help__confirm">
            <p id="guest-code-confirm" className="guest-text">
              {words.codeProblemConfirm}
            </p>
            <Button variant="primary" onClick={tellDesk} data-testid="guest-code-problem-confirm">
              {words.codeProblemYes}
            </Button>{' '}
            <Button variant="ghost" onClick={() => setReport({ kind: 'idle' })}>
              {words.codeProblemNo}
            </Button>
          </div>
        ) : (
          report.kind !== 'reported' && (
            <Button
              variant="danger"
              block
              loading={report.kind === 'sending'}
              loadingLabel={words.codeProblemSending}
              onClick={() => setReport({ kind: 'confirming' })}
              data-testid="guest-code-problem-button"
            >
              {words.codeProblem}
            </Button>
          )
        )}
        <div role="status" aria-live="polite" data-testid="guest-code-problem-result">
          {report.kind === 'failed' && <p className="guest-hint">{words.codeProblemFailed}</p>}
          {report.kind === 'reported' && <p className="guest-text">{words.codeProblemSent}</p>}
          {backupPin && (
            <div className="guest-pin-block" data-testid="guest-backup-code">
              <p className="guest-pin-block__label">{words.backupTitle}</p>
              <p
                className="guest-pin"
                role="img"
                aria-label={fill(words.pinAria, { digits: backupPin.split('').join(' ') })}
              >
                {backupPin.split('').map((digit, index) => (
                  <span key={index} className="guest-pin__digit">
                    {digit}
                  </span>
                ))}
              </p>
              <p className="guest-hint">{words.backupHint}</p>
            </div>
          )}
        </div>
      </div>

      <form className="guest-help__form" onSubmit={send} noValidate data-testid="guest-message-form">
        <label htmlFor="guest-message" className="guest-info__label">
          {words.messageLabel}
        </label>
        <p id="guest-message-hint" className="guest-hint">
          {words.messageHint}
        </p>
        <textarea
          id="guest-message"
          name="body"
          className="guest-help__textarea"
          rows={4}
          maxLength={MAX}
          value={body}
          aria-describedby="guest-message-hint guest-message-result"
          aria-invalid={message === 'empty' || message === 'tooLong' || undefined}
          onChange={(event) => {
            setBody(event.target.value);
            if (message !== 'sending') setMessage('idle');
          }}
          data-testid="guest-message-body"
        />
        <Button type="submit" variant="secondary" loading={message === 'sending'} loadingLabel={words.sending}>
          {words.send}
        </Button>
        <p
          id="guest-message-result"
          role="status"
          aria-live="polite"
          className="guest-hint"
          data-testid="guest-message-result"
          data-state={message}
        >
          {messageNote[message] ?? ''}
        </p>
      </form>
    </>
  );
}
