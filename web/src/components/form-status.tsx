import { useEffect, useState } from 'react';
import { PlainAlert } from './plain-alert';

export interface FormStatus {
  ok: boolean;
  text: string;
}

/** SPEC §9: success messages hide after 3000 ms; errors stay until the next attempt. */
export const SUCCESS_HIDE_MS = 3000;

export function useFormStatus() {
  const [status, setStatus] = useState<FormStatus | null>(null);
  useEffect(() => {
    if (!status?.ok) return;
    const timer = setTimeout(() => setStatus(null), SUCCESS_HIDE_MS);
    return () => clearTimeout(timer);
  }, [status]);
  return [status, setStatus] as const;
}

/** The result line above a form: green for success, red for failure. */
export function FormStatusAlert({ status }: { status: FormStatus | null }) {
  if (!status) return null;
  return (
    <PlainAlert
      type={status.ok ? 'success' : 'error'}
      message={status.text}
      className="fv-form-alert"
      role="alert"
    />
  );
}
