import type { HTMLAttributes } from 'react';
import { cx } from './cx';
import styles from './badge.module.css';

export type BadgeTone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

type Props = HTMLAttributes<HTMLElement> & {
  tone?: BadgeTone;
  /** A list item when the badges form a list (`<ul>` of counts), a span otherwise. */
  as?: 'span' | 'li';
};

/** A short status word in a pill; the words say it, the tone only reinforces. */
export function Badge({ tone = 'neutral', as: Tag = 'span', className, ...props }: Props) {
  return <Tag {...props} className={cx(styles.badge, tone !== 'neutral' && styles[tone], className)} />;
}
