'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useRef, type ReactNode } from 'react';
import type { ActionError } from '@/app/_server/action';
import { Notice, type NoticeTone } from '@/components/ui/notice';
import { providerProblem } from './provider-problem';
import styles from './locks.module.css';

/**
 * An action's outcome under its button: focus moves to it with each new answer (`attempt`), so a
 * keyboard or screen-reader user hears what happened and continues from there.
 */
export function ActionResult({
  attempt,
  tone,
  testId,
  children,
}: {
  attempt: number | undefined;
  tone: NoticeTone;
  testId: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (attempt !== undefined) ref.current?.focus();
  }, [attempt]);
  if (attempt === undefined) return null;
  return (
    <div ref={ref} tabIndex={-1} className={styles.result} data-testid={testId}>
      <Notice tone={tone}>{children}</Notice>
    </div>
  );
}

/** A refused action's message, and in plain words what the lock provider's failure means when there was one. */
export function ActionErrorText({ error }: { error: ActionError }) {
  const t = useTranslations('locks.providerProblem');
  const code = error.providerCode;
  return (
    <>
      {error.message}
      {code && ` ${t(providerProblem(code), { code })}`}
    </>
  );
}
