import type { ReactNode, TableHTMLAttributes } from 'react';
import { cx } from './cx';
import styles from './table.module.css';

/** Classes for cells: `wrap` lets long text wrap, `numeric` right-aligns figures. */
export const cell = { wrap: styles.wrapText, numeric: styles.numeric };

type Props = TableHTMLAttributes<HTMLTableElement> & {
  /** The scrolling region's name: a heading's id, or a label. */
  region: { labelledBy: string } | { label: string };
  children: ReactNode;
};

/** A table inside a named, keyboard-scrollable region, so a wide table never widens the page. */
export function Table({ region, className, children, ...props }: Props) {
  return (
    <div
      className={styles.wrap}
      role="region"
      tabIndex={0}
      {...('labelledBy' in region ? { 'aria-labelledby': region.labelledBy } : { 'aria-label': region.label })}
    >
      <table {...props} className={cx(styles.table, className)}>
        {children}
      </table>
    </div>
  );
}
