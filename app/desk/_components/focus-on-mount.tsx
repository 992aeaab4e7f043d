'use client';

import { useEffect, useRef, type ReactNode } from 'react';

/** Moves focus to its content when it appears: the result of an action the person just took. */
export function FocusOnMount({
  children,
  className,
  label,
}: {
  children: ReactNode;
  className?: string;
  label?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <div ref={ref} tabIndex={-1} className={className} aria-label={label}>
      {children}
    </div>
  );
}
