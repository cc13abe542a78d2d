import { MESSAGES } from '@forkvote/contracts';
import { Alert, Button, Card, Checkbox, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { api } from '../../api/endpoints';
import { ApiError } from '../../api/http';
import { useAuth } from '../../auth/auth-context';
import { emailRules } from './form-rules';

export function LoginPage() {
  const auth = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  const submit = async (values: { email: string; password: string; rememberMe: boolean }) => {
    setLoading(true);
    setError(null);
    try {
      const payload = await api.login({ ...values, rememberMe: Boolean(values.rememberMe) });
      auth.setPayload(payload);
      navigate((location.state as { from?: string } | null)?.from ?? '/');
    } catch (err) {
      // The SPEC shows one message; the server's reason stays for the console.
      if (err instanceof ApiError) console.info(`Login refused: ${err.message}`);
      setError(MESSAGES.loginFailed);
    } finally {
      setLoading(false);
    }
  };

  return (
    <Card className="fv-form-card" title={<Typography.Title level={1}>Log In</Typography.Title>}>
      {error && <Alert type="error" showIcon message={error} className="fv-form-alert" role="alert" />}
      <Form layout="vertical" onFinish={submit} requiredMark={false} initialValues={{ rememberMe: false }}>
        <Form.Item label="Email" name="email" rules={emailRules}>
          <Input type="email" autoComplete="email" />
        </Form.Item>
        <Form.Item
          label="Password"
          name="password"
          rules={[{ required: true, message: 'Please enter your password' }]}
        >
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item name="rememberMe" valuePropName="checked">
          <Checkbox>Remember me</Checkbox>
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={loading}>
          Log In
        </Button>
      </Form>
      <div className="fv-form-links">
        <Link to="/forgot-password">Forgot your password?</Link>
        <Link to="/register">New here? Start your free trial</Link>
      </div>
    </Card>
  );
}
