import { MESSAGES } from '@forkvote/contracts';
import { useState } from 'react';
import { api } from '../../api/endpoints';
import { FormStatusAlert, useFormStatus } from '../../components/form-status';
import { PlainButton } from '../../components/plain-button';
import { FormCard, PlainForm, TextField, useTextField, validateAll } from '../../components/plain-form';
import { emailRule, required } from '../auth/form-rules';

export function FeedbackPage() {
  const [result, setResult] = useFormStatus();
  const [loading, setLoading] = useState(false);
  const name = useTextField(required('Please enter your name'));
  const email = useTextField(emailRule);
  const subject = useTextField(required('Please enter a subject'));
  const message = useTextField(required('Please enter a message'));
  const fields = [name, email, subject, message];

  const submit = async () => {
    if (!validateAll(...fields)) return;
    setLoading(true);
    try {
      await api.feedback({
        name: name.value,
        email: email.value,
        subject: subject.value,
        message: message.value,
      });
      setResult({ ok: true, text: MESSAGES.feedbackThanks });
      for (const field of fields) field.reset();
    } catch {
      setResult({ ok: false, text: MESSAGES.feedbackFailed });
    } finally {
      setLoading(false);
    }
  };

  return (
    <FormCard title="Feedback">
      <FormStatusAlert status={result} />
      <PlainForm onSubmit={() => void submit()}>
        <TextField label="Name" autoComplete="name" field={name} />
        <TextField label="Email" type="email" autoComplete="email" field={email} />
        <TextField label="Subject" field={subject} />
        <TextField label="Message" field={message} multiline />
        <PlainButton type="primary" htmlType="submit" block loading={loading}>
          Send Feedback
        </PlainButton>
      </PlainForm>
    </FormCard>
  );
}
