'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';

type Props = {
  /** The text to copy. */
  text: string;
  /** The id of the element showing that text: selected as a fallback when the clipboard is unavailable. */
  targetId: string;
  /** Says what is being copied, for screen readers ("Copy webhook URL"). */
  accessibleLabel?: string;
  testId?: string;
};

/** "Copy" with the clipboard API; where that is refused (plain http, old browsers) it selects the text instead. */
export function CopyButton({ text, targetId, accessibleLabel, testId }: Props) {
  const t = useTranslations('copy');
  const [status, setStatus] = useState<'idle' | 'copied' | 'selected'>('idle');

  useEffect(() => {
    if (status !== 'copied') return;
    const timer = window.setTimeout(() => setStatus('idle'), 2500);
    return () => window.clearTimeout(timer);
  }, [status]);

  function selectTarget(): void {
    const target = document.getElementById(targetId);
    const selection = window.getSelection();
    if (!target || !selection) return;
    const range = document.createRange();
    range.selectNodeContents(target);
    selection.removeAllRanges();
    selection.addRange(range);
  }

  async function copy(): Promise<void> {
    try {
      if (!navigator.clipboard) throw new Error('clipboard unavailable');
      await navigator.clipboard.writeText(text);
      setStatus('copied');
    } catch {
      selectTarget();
      setStatus('selected');
    }
  }

  return (
    <span className="copy">
      <Button size="compact" onClick={() => void copy()} aria-label={accessibleLabel} data-testid={testId}>
        {status === 'copied' ? t('copied') : t('copy')}
      </Button>
      {/* "Copied" is already on the button; the live region repeats it for screen readers only. */}
      <span role="status" className={status === 'selected' ? 'copy__status' : 'visually-hidden'}>
        {status === 'copied' ? t('copied') : status === 'selected' ? t('selected') : ''}
      </span>
    </span>
  );
}
