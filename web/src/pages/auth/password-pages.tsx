import { MESSAGES } from '@forkvote/contracts';
import { Alert, Button, Card, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { api } from '../../api/endpoints';
import { ApiError } from '../../api/http';
import { FormStatusAlert, useFormStatus } from '../../components/form-status';
import { emailRules, passwordRules } from './form-rules';

export function ForgotPasswordPage() {
  const [result, setResult] = useFormStatus();
  const [loading, setLoading] = useState(false);

  const submit = async ({ email }: { email: string }) => {
    setLoading(true);
    try {
      await api.requestPasswordReset(email);
      setResult({ ok: true, text: MESSAGES.resetPasswordEmailSent });
    } catch {
      setResult({ ok: false, text: MESSAGES.resetPasswordFailed });
    } finally {
      setLoading(false);
    }
  };

  return (
    <Card className="fv-form-card" title={<Typography.Title level={1}>Forgot Password</Typography.Title>}>
      <FormStatusAlert status={result} />
      <Typography.Paragraph type="secondary">
        Enter your email and we will send you a link to choose a new password.
      </Typography.Paragraph>
      <Form layout="vertical" onFinish={submit} requiredMark={false}>
        <Form.Item label="Email" name="email" rules={emailRules}>
          <Input type="email" autoComplete="email" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={loading}>
          Send reset link
        </Button>
      </Form>
      <div className="fv-form-links">
        <Link to="/login">Back to log in</Link>
      </div>
    </Card>
  );
}

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [loading, setLoading] = useState(false);
  if (!token) return <Navigate to="/forgot-password" replace />;

  const submit = async ({ password }: { password: string }) => {
    setLoading(true);
    setError(null);
    try {
      await api.resetPassword(password, token);
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
    <Card
      className="fv-form-card"
      title={<Typography.Title level={1}>Choose a New Password</Typography.Title>}
    >
      {done ? (
        <Alert
          type="success"
          showIcon
          role="alert"
          message={<Link to="/login">{MESSAGES.resetSuccess}</Link>}
        />
      ) : (
        <>
          {error && <Alert type="error" showIcon message={error} className="fv-form-alert" role="alert" />}
          <Form layout="vertical" onFinish={submit} requiredMark={false}>
            <Form.Item label="New password" name="password" rules={passwordRules}>
              <Input.Password autoComplete="new-password" />
            </Form.Item>
            <Form.Item
              label="Confirm new password"
              name="confirm"
              dependencies={['password']}
              rules={[
                ...passwordRules,
                ({ getFieldValue }) => ({
                  validator: (_, value) =>
                    value === getFieldValue('password')
                      ? Promise.resolve()
                      : Promise.reject(new Error(MESSAGES.passwordsDoNotMatch)),
                }),
              ]}
            >
              <Input.Password autoComplete="new-password" />
            </Form.Item>
            <Button type="primary" htmlType="submit" block loading={loading}>
              Reset password
            </Button>
          </Form>
        </>
      )}
    </Card>
  );
}
