import {
  CheckCircleFilled,
  CloseCircleFilled,
  CloseOutlined,
  ExclamationCircleFilled,
  InfoCircleFilled,
} from '@ant-design/icons';
import type { HTMLAttributes, ReactNode } from 'react';

const ICONS = {
  info: <InfoCircleFilled style={{ color: '#1677ff' }} />,
  warning: <ExclamationCircleFilled style={{ color: '#d48806' }} />,
  error: <CloseCircleFilled style={{ color: '#c62828' }} />,
  success: <CheckCircleFilled style={{ color: '#2b8a3e' }} />,
};

/** A notice drawn as antd's Alert is (styles.css, `.fv-alert`), for the frame and pages that load no antd. */
export function PlainAlert({
  type,
  message,
  description,
  banner = false,
  onClose,
  className,
  ...rest
}: {
  type: keyof typeof ICONS;
  message: ReactNode;
  description?: ReactNode;
  banner?: boolean;
  /** Offers a close button (×) that calls it. */
  onClose?: () => void;
} & Omit<HTMLAttributes<HTMLDivElement>, 'title'>) {
  return (
    <div
      {...rest}
      className={['fv-alert', `fv-alert-${type}`, banner && 'fv-alert-banner', className]
        .filter(Boolean)
        .join(' ')}
    >
      {ICONS[type]}
      <div>
        <p className={description ? 'fv-alert-title' : undefined}>{message}</p>
        {description && <p>{description}</p>}
      </div>
      {onClose && (
        <button type="button" className="fv-alert-close" aria-label="Close" onClick={onClose}>
          <CloseOutlined />
        </button>
      )}
    </div>
  );
}
