import { MESSAGES } from '@forkvote/contracts';
import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { api } from '../../api/endpoints';
import { ApiError } from '../../api/http';
import { useAuth } from '../../auth/auth-context';
import { PlainAlert } from '../../components/plain-alert';
import { PlainButton } from '../../components/plain-button';
import {
  CheckboxField,
  FormCard,
  PasswordField,
  PlainForm,
  TextField,
  useTextField,
  validateAll,
} from '../../components/plain-form';
import { emailRule, required } from './form-rules';

export function LoginPage() {
  const auth = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const email = useTextField(emailRule);
  const password = useTextField(required('Please enter your password'));
  const [rememberMe, setRememberMe] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  const submit = async () => {
    if (!validateAll(email, password)) return;
    setLoading(true);
    setError(null);
    try {
      const payload = await api.login({ email: email.value, password: password.value, rememberMe });
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
    <FormCard title="Log In">
      {error && <PlainAlert type="error" message={error} className="fv-form-alert" role="alert" />}
      <PlainForm onSubmit={() => void submit()}>
        <TextField label="Email" type="email" autoComplete="email" field={email} />
        <PasswordField label="Password" autoComplete="current-password" field={password} />
        <CheckboxField checked={rememberMe} onChange={setRememberMe}>
          Remember me
        </CheckboxField>
        <PlainButton type="primary" htmlType="submit" block loading={loading}>
          Log In
        </PlainButton>
      </PlainForm>
      <div className="fv-form-links">
        <Link to="/forgot-password">Forgot your password?</Link>
        <Link to="/register">New here? Start your free trial</Link>
      </div>
    </FormCard>
  );
}
