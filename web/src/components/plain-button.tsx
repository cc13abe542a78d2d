import type { AnchorHTMLAttributes, ButtonHTMLAttributes, MouseEvent, ReactNode } from 'react';
import { useHref, useNavigate } from 'react-router';

/*
 * Buttons in plain markup, drawn like antd's (styles.css, `.fv-btn`): the pages a phone opens first (home,
 * the room, the static pages) and the frame around every page load no antd at all.
 */

interface Look {
  /** primary: the brand fill; danger: red text and border; default: outlined. */
  type?: 'primary' | 'default' | 'danger';
  size?: 'middle' | 'large';
  block?: boolean;
  icon?: ReactNode;
}

function classes({ type = 'default', size = 'middle', block }: Look, extra?: string): string {
  return ['fv-btn', `fv-btn-${type}`, size === 'large' && 'fv-btn-lg', block && 'fv-btn-block', extra]
    .filter(Boolean)
    .join(' ');
}

export function PlainButton({
  type,
  htmlType = 'button',
  size,
  block,
  icon,
  loading = false,
  className,
  children,
  disabled,
  ...rest
}: Look & { loading?: boolean; htmlType?: 'button' | 'submit' } & Omit<
    ButtonHTMLAttributes<HTMLButtonElement>,
    'type'
  >) {
  return (
    <button
      type={htmlType}
      {...rest}
      className={classes({ type, size, block }, className)}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
    >
      {loading ? <span className="fv-spinner" aria-hidden="true" /> : icon}
      {children !== undefined && <span>{children}</span>}
    </button>
  );
}

/**
 * A button that navigates: one <a href> styled as a button, so it takes one Tab stop (a <button> inside a
 * <Link> takes two) and opens in a new tab on a modified click, as links do.
 */
export function LinkButton({
  to,
  type,
  size,
  block,
  icon,
  className,
  children,
  onClick,
  ...rest
}: Look & { to: string } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href' | 'type'>) {
  const navigate = useNavigate();
  const href = useHref(to);
  return (
    <a
      {...rest}
      href={href}
      className={classes({ type, size, block }, className)}
      onClick={(event: MouseEvent<HTMLAnchorElement>) => {
        onClick?.(event);
        if (event.defaultPrevented || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0)
          return;
        event.preventDefault();
        void navigate(to);
      }}
    >
      {icon}
      <span>{children}</span>
    </a>
  );
}
