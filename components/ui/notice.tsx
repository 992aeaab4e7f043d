import type { HTMLAttributes } from 'react';
import { cx } from './cx';
import styles from './notice.module.css';

export type NoticeTone = 'info' | 'success' | 'warning' | 'error';

type Props = HTMLAttributes<HTMLElement> & {
  tone: NoticeTone;
  /** `block`: a panel with a coloured bar; `inline`: coloured words beside a control. */
  variant?: 'block' | 'inline';
  /**
   * Whether assistive technology announces it: an error or warning as an alert, info or success as a
   * status. False for text that is part of the page from the start (a standing note).
   */
  announce?: boolean;
  /** A margin above it, for an outcome shown under what produced it. */
  spaced?: boolean;
  as?: 'p' | 'div' | 'span';
};

/** A message in one of four tones, announced as an alert or a status unless `announce` is false. */
export function Notice({
  tone,
  variant = 'block',
  announce = true,
  spaced = false,
  as: Tag = 'p',
  className,
  ...props
}: Props) {
  const role = announce ? (tone === 'error' || tone === 'warning' ? 'alert' : 'status') : undefined;
  return (
    <Tag
      role={role}
      {...props}
      className={cx(
        variant === 'block' ? cx(styles.notice, styles[tone]) : cx(styles.inline, styles[`inline-${tone}`]),
        spaced && styles.spaced,
        className,
      )}
    />
  );
}

/** The look of a form's error, for an element that is an error only sometimes (a result line). */
export const formErrorClassName = styles.formError;

/**
 * A form's error message, always rendered (an alert region must exist before it speaks) and hidden
 * while empty. Give it an id and list that id in the fields' `aria-describedby`.
 */
export function FormError({ className, ...props }: HTMLAttributes<HTMLElement> & { as?: 'p' | 'div' }) {
  const { as: Tag = 'p', ...rest } = props;
  return <Tag role="alert" {...rest} className={cx(styles.formError, className)} />;
}
