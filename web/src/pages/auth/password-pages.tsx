import { MESSAGES } from '@forkvote/contracts';
import { useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { api } from '../../api/endpoints';
import { ApiError } from '../../api/http';
import { FormStatusAlert, useFormStatus } from '../../components/form-status';
import { PlainAlert } from '../../components/plain-alert';
import { PlainButton } from '../../components/plain-button';
import {
  FormCard,
  PasswordField,
  PlainForm,
  TextField,
  useTextField,
  validateAll,
} from '../../components/plain-form';
import { emailRule, passwordRule } from './form-rules';

export function ForgotPasswordPage() {
  const [result, setResult] = useFormStatus();
  const [loading, setLoading] = useState(false);
  const email = useTextField(emailRule);

  const submit = async () => {
    if (!email.validate()) return;
    setLoading(true);
    try {
      await api.requestPasswordReset(email.value);
      setResult({ ok: true, text: MESSAGES.resetPasswordEmailSent });
    } catch {
      setResult({ ok: false, text: MESSAGES.resetPasswordFailed });
    } finally {
      setLoading(false);
    }
  };

  return (
    <FormCard title="Forgot Password">
      <FormStatusAlert status={result} />
      <p className="fv-muted">Enter your email and we will send you a link to choose a new password.</p>
      <PlainForm onSubmit={() => void submit()}>
        <TextField label="Email" type="email" autoComplete="email" field={email} />
        <PlainButton type="primary" htmlType="submit" block loading={loading}>
          Send reset link
        </PlainButton>
      </PlainForm>
      <div className="fv-form-links">
        <Link to="/login">Back to log in</Link>
      </div>
    </FormCard>
  );
}

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [loading, setLoading] = useState(false);
  const password = useTextField(passwordRule);
  const confirm = useTextField((value) => passwordRule(value) ?? matches(value));
  // The confirmation is checked against the password as it is when the rule runs.
  function matches(value: string) {
    return value === password.value ? null : MESSAGES.passwordsDoNotMatch;
  }
  if (!token) return <Navigate to="/forgot-password" replace />;

  const submit = async () => {
    if (!validateAll(password, confirm)) return;
    setLoading(true);
    setError(null);
    try {
      await api.resetPassword(password.value, token);
      setDone(true);
    } catch (err) {
      const status = err instanceof ApiError ? err.status : 0;
      setError(
        status === 404
          ? MESSAGES.resetTokenInvalid
          : status === 400
            ? MESSAGES.resetSamePassword
            : MESSAGES.resetPasswordFailed,
      );
    } finally {
      setLoading(false);
    }
  };

  return (
    <FormCard title="Choose a New Password">
      {done ? (
        <PlainAlert type="success" role="alert" message={<Link to="/login">{MESSAGES.resetSuccess}</Link>} />
      ) : (
        <>
          {error && <PlainAlert type="error" message={error} className="fv-form-alert" role="alert" />}
          <PlainForm onSubmit={() => void submit()}>
            <PasswordField label="New password" autoComplete="new-password" field={password} />
            <PasswordField label="Confirm new password" autoComplete="new-password" field={confirm} />
            <PlainButton type="primary" htmlType="submit" block loading={loading}>
              Reset password
            </PlainButton>
          </PlainForm>
        </>
      )}
    </FormCard>
  );
}
