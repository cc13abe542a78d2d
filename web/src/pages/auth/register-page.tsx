import { MESSAGES, PLAN_CATALOG, PLANS, type Plan } from '@forkvote/contracts';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api } from '../../api/endpoints';
import { ApiError } from '../../api/http';
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
import { planPriceLabel } from '../static/pricing-page';
import { useBotCheck } from './bot-check';
import { emailRule, passwordRule, required } from './form-rules';

/** ?plan= preselects a plan; anything unknown counts as monthly (SPEC §2). */
export function planFromQuery(value: string | null): Plan {
  return (PLANS as readonly string[]).includes(value ?? '') ? (value as Plan) : 'monthly';
}

export function RegisterPage() {
  const [params] = useSearchParams();
  const botCheck = useBotCheck();
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const name = useTextField(required(MESSAGES.fullNameRequired));
  const email = useTextField(emailRule);
  const password = useTextField(passwordRule);
  const [plan, setPlan] = useState<Plan>(() => planFromQuery(params.get('plan')));
  const [accepted, setAccepted] = useState(false);
  const [acceptError, setAcceptError] = useState<string | null>(null);
  const [contactMe, setContactMe] = useState(false);

  const accept = (checked: boolean) => {
    setAccepted(checked);
    setAcceptError(checked ? null : MESSAGES.acceptTerms);
  };

  const submit = async () => {
    const fieldsOk = validateAll(name, email, password);
    setAcceptError(accepted ? null : MESSAGES.acceptTerms);
    if (!fieldsOk || !accepted) return;
    setError(null);
    if (botCheck.loadError)
      return setError(`reCAPTCHA error: ${botCheck.loadError} Please refresh the page and try again.`);
    if (!botCheck.ready) return setError('reCAPTCHA is still loading. Please try again in a moment.');
    setLoading(true);
    try {
      const recaptchaToken = await botCheck.execute('register');
      const { stripeCheckoutUrl } = await api.register({
        name: name.value.trim(),
        email: email.value,
        password: password.value,
        plan,
        acceptTermsOfService: accepted,
        contactMeForUserFeedback: contactMe,
        recaptchaToken,
      });
      window.location.assign(stripeCheckoutUrl);
    } catch (err) {
      const status = err instanceof ApiError ? err.status : 0;
      setError(
        status === 409
          ? MESSAGES.emailInUse
          : status === 403
            ? MESSAGES.recaptchaFailed
            : MESSAGES.registrationFailed,
      );
      setLoading(false);
    }
  };

  return (
    <FormCard title="Start Your Free Trial">
      {error && <PlainAlert type="error" message={error} className="fv-form-alert" role="alert" />}
      <PlainForm onSubmit={() => void submit()}>
        <TextField label="Full name" autoComplete="name" field={name} />
        <TextField label="Email" type="email" autoComplete="email" field={email} />
        <PasswordField label="Password" autoComplete="new-password" field={password} />
        <fieldset className="fv-field fv-plan-choice">
          <legend>Plan</legend>
          {PLANS.map((option) => (
            <label key={option} className={`fv-choice-button${plan === option ? ' fv-choice-checked' : ''}`}>
              <input
                type="radio"
                name="plan"
                value={option}
                checked={plan === option}
                onChange={() => setPlan(option)}
              />
              <span>
                <strong>{PLAN_CATALOG[option].name}</strong> · {planPriceLabel(option)}
              </span>
            </label>
          ))}
        </fieldset>
        <CheckboxField checked={accepted} onChange={accept} error={acceptError}>
          I am at least 18 and accept the <Link to="/terms">terms of service</Link> and the{' '}
          <Link to="/privacy">privacy policy</Link>
        </CheckboxField>
        <CheckboxField checked={contactMe} onChange={setContactMe}>
          You may contact me for feedback about ForkVote
        </CheckboxField>
        <PlainButton type="primary" htmlType="submit" block loading={loading}>
          Continue to payment
        </PlainButton>
        <p className="fv-muted fv-fine-print">
          Monthly and yearly plans start with a 7-day free trial. Cancel any time.
        </p>
      </PlainForm>
      <div className="fv-form-links">
        <Link to="/login">Already have an account? Log in</Link>
      </div>
    </FormCard>
  );
}
