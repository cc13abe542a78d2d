import { Button, Modal } from 'antd';
import type { ComponentProps, ReactNode } from 'react';
import { AntdScope } from '../../app/antd-scope';

/**
 * SPEC §2 alert: optional title, a message, one button (default 'OK'). Closing by button, Escape or
 * outside click all run `onConfirm` after closing.
 */
export function AlertDialog(props: {
  open: boolean;
  title?: ReactNode;
  message: ReactNode;
  buttonLabel?: string;
  onConfirm: () => void;
}) {
  return (
    <Modal
      open={props.open}
      title={props.title}
      onCancel={props.onConfirm}
      keyboard
      maskClosable
      centered
      footer={
        <Button type="primary" onClick={props.onConfirm} autoFocus>
          {props.buttonLabel ?? 'OK'}
        </Button>
      }
    >
      {props.message}
    </Modal>
  );
}

/**
 * SPEC §2 confirm: Cancel and Continue (labels can change). Escape, × and a click outside count as cancel,
 * unless `onDismiss` is given: where Cancel does something (its label says what), dismissing must not.
 */
export function ConfirmDialog(props: {
  open: boolean;
  title?: ReactNode;
  message: ReactNode;
  cancelLabel?: string;
  continueLabel?: string;
  onResult: (confirmed: boolean) => void;
  onDismiss?: () => void;
}) {
  return (
    <Modal
      open={props.open}
      title={props.title}
      onCancel={() => (props.onDismiss ? props.onDismiss() : props.onResult(false))}
      keyboard
      centered
      footer={[
        <Button key="cancel" onClick={() => props.onResult(false)}>
          {props.cancelLabel ?? 'Cancel'}
        </Button>,
        <Button key="continue" type="primary" onClick={() => props.onResult(true)} autoFocus>
          {props.continueLabel ?? 'Continue'}
        </Button>,
      ]}
    >
      {props.message}
    </Modal>
  );
}

/** AlertDialog with antd's theme, for a plain page (one that loads no antd until it has something to say). */
export function ScopedAlertDialog(props: ComponentProps<typeof AlertDialog>) {
  return (
    <AntdScope>
      <AlertDialog {...props} />
    </AntdScope>
  );
}

/** ConfirmDialog with antd's theme, for a plain page. */
export function ScopedConfirmDialog(props: ComponentProps<typeof ConfirmDialog>) {
  return (
    <AntdScope>
      <ConfirmDialog {...props} />
    </AntdScope>
  );
}
