import { Button, ButtonProps } from 'antd';

/** SPEC §2's shared button variants and sizes, mapped onto antd's button. */
export type ButtonVariant = 'default' | 'destructive' | 'outline' | 'secondary' | 'ghost' | 'link' | 'blank';
export type ButtonSize = 'default' | 'sm' | 'lg' | 'icon';

interface VariantProps {
  type: 'primary' | 'default' | 'text' | 'link';
  danger?: boolean;
  className?: string;
}

const VARIANTS: Record<ButtonVariant, VariantProps> = {
  default: { type: 'primary' },
  destructive: { type: 'primary', danger: true },
  outline: { type: 'default' },
  secondary: { type: 'default', className: 'fv-btn-secondary' },
  ghost: { type: 'text' },
  link: { type: 'link' },
  blank: { type: 'text', className: 'fv-btn-blank' },
};

const SIZES: Record<ButtonSize, { size: 'small' | 'middle' | 'large'; shape?: 'circle' }> = {
  default: { size: 'middle' },
  sm: { size: 'small' },
  lg: { size: 'large' },
  icon: { size: 'middle', shape: 'circle' },
};

export function AppButton({
  variant = 'default',
  size = 'default',
  className,
  ...rest
}: Omit<ButtonProps, 'variant' | 'size' | 'type'> & { variant?: ButtonVariant; size?: ButtonSize }) {
  const v = VARIANTS[variant];
  const classes = [v.className, className].filter(Boolean).join(' ') || undefined;
  return <Button {...v} {...SIZES[size]} {...rest} className={classes} />;
}
