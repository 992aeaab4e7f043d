import type { ButtonHTMLAttributes, Ref } from 'react';
import { cx } from './cx';
import styles from './button.module.css';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';
export type ButtonSize = 'default' | 'compact' | 'large';

type Look = { variant?: ButtonVariant; size?: ButtonSize; block?: boolean; className?: string };

/** The classes of a button, for a link that acts as one (`<Link className={buttonClassName(…)}>`). */
export function buttonClassName({ variant = 'secondary', size = 'default', block = false, className }: Look = {}) {
  return cx(styles.button, styles[variant], size !== 'default' && styles[size], block && styles.block, className);
}

type Props = ButtonHTMLAttributes<HTMLButtonElement> &
  Look & {
    ref?: Ref<HTMLButtonElement>;
    /** While true the button is disabled and, when given, shows `loadingLabel` instead of its children. */
    loading?: boolean;
    loadingLabel?: string;
  };

/**
 * A button with a variant and size. `type` defaults to "button": a submit button says so
 * (`type="submit"`), so no button submits a form by accident.
 */
export function Button({
  variant,
  size,
  block,
  className,
  loading = false,
  loadingLabel,
  disabled,
  type = 'button',
  children,
  ...props
}: Props) {
  return (
    <button
      {...props}
      type={type}
      disabled={disabled || loading}
      className={buttonClassName({ variant, size, block, className })}
    >
      {loading && loadingLabel !== undefined ? loadingLabel : children}
    </button>
  );
}
