import { MESSAGES, PLAN_CATALOG, PLANS, type Plan } from '@forkvote/contracts';
import { Alert, Button, Card, Checkbox, Form, Input, Radio, Typography } from 'antd';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api } from '../../api/endpoints';
import { ApiError } from '../../api/http';
import { planPriceLabel } from '../static/pricing-page';
import { useBotCheck } from './bot-check';
import { emailRules, passwordRules } from './form-rules';

interface RegisterValues {
  name: string;
  email: string;
  password: string;
  plan: Plan;
  acceptTermsOfService: boolean;
  contactMeForUserFeedback: boolean;
}

/** ?plan= preselects a plan; anything unknown counts as monthly (SPEC §2). */
export function planFromQuery(value: string | null): Plan {
  return (PLANS as readonly string[]).includes(value ?? '') ? (value as Plan) : 'monthly';
}

export function RegisterPage() {
  const [params] = useSearchParams();
  const botCheck = useBotCheck();
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  const submit = async (values: RegisterValues) => {
    setError(null);
    if (botCheck.loadError)
      return setError(`reCAPTCHA error: ${botCheck.loadError} Please refresh the page and try again.`);
    if (!botCheck.ready) return setError('reCAPTCHA is still loading. Please try again in a moment.');
    setLoading(true);
    try {
      const recaptchaToken = await botCheck.execute('register');
      const { stripeCheckoutUrl } = await api.register({
        ...values,
        name: values.name.trim(),
        contactMeForUserFeedback: Boolean(values.contactMeForUserFeedback),
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
    <Card
      className="fv-form-card"
      title={<Typography.Title level={1}>Start Your Free Trial</Typography.Title>}
    >
      {error && <Alert type="error" showIcon message={error} className="fv-form-alert" role="alert" />}
      <Form<RegisterValues>
        layout="vertical"
        onFinish={submit}
        requiredMark={false}
        initialValues={{
          plan: planFromQuery(params.get('plan')),
          acceptTermsOfService: false,
          contactMeForUserFeedback: false,
        }}
      >
        <Form.Item
          label="Full name"
          name="name"
          rules={[{ required: true, whitespace: true, message: MESSAGES.fullNameRequired }]}
        >
          <Input autoComplete="name" />
        </Form.Item>
        <Form.Item label="Email" name="email" rules={emailRules}>
          <Input type="email" autoComplete="email" />
        </Form.Item>
        <Form.Item label="Password" name="password" rules={passwordRules}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item label="Plan" name="plan">
          <Radio.Group className="fv-plan-choice">
            {PLANS.map((plan) => (
              <Radio.Button key={plan} value={plan}>
                <strong>{PLAN_CATALOG[plan].name}</strong> · {planPriceLabel(plan)}
              </Radio.Button>
            ))}
          </Radio.Group>
        </Form.Item>
        <Form.Item
          name="acceptTermsOfService"
          valuePropName="checked"
          rules={[
            {
              validator: (_, v) => (v ? Promise.resolve() : Promise.reject(new Error(MESSAGES.acceptTerms))),
            },
          ]}
        >
          <Checkbox>
            I am at least 18 and accept the <Link to="/terms">terms of service</Link> and the{' '}
            <Link to="/privacy">privacy policy</Link>
          </Checkbox>
        </Form.Item>
        <Form.Item name="contactMeForUserFeedback" valuePropName="checked">
          <Checkbox>You may contact me for feedback about ForkVote</Checkbox>
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={loading}>
          Continue to payment
        </Button>
        <Typography.Paragraph type="secondary" className="fv-fine-print">
          Monthly and yearly plans start with a 7-day free trial. Cancel any time.
        </Typography.Paragraph>
      </Form>
      <div className="fv-form-links">
        <Link to="/login">Already have an account? Log in</Link>
      </div>
    </Card>
  );
}
