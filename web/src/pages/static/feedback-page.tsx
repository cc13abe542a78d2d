import { MESSAGES } from '@forkvote/contracts';
import { Button, Card, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { api } from '../../api/endpoints';
import { FormStatusAlert, useFormStatus } from '../../components/form-status';
import { emailRules } from '../auth/form-rules';

interface FeedbackValues {
  name: string;
  email: string;
  subject: string;
  message: string;
}

export function FeedbackPage() {
  const [form] = Form.useForm<FeedbackValues>();
  const [result, setResult] = useFormStatus();
  const [loading, setLoading] = useState(false);

  const submit = async (values: FeedbackValues) => {
    setLoading(true);
    try {
      await api.feedback(values);
      setResult({ ok: true, text: MESSAGES.feedbackThanks });
      form.resetFields();
    } catch {
      setResult({ ok: false, text: MESSAGES.feedbackFailed });
    } finally {
      setLoading(false);
    }
  };

  const required = (message: string) => [{ required: true, whitespace: true, message }];
  return (
    <Card className="fv-form-card" title={<Typography.Title level={1}>Feedback</Typography.Title>}>
      <FormStatusAlert status={result} />
      <Form form={form} layout="vertical" onFinish={submit} requiredMark={false}>
        <Form.Item label="Name" name="name" rules={required('Please enter your name')}>
          <Input autoComplete="name" />
        </Form.Item>
        <Form.Item label="Email" name="email" rules={emailRules}>
          <Input type="email" autoComplete="email" />
        </Form.Item>
        <Form.Item label="Subject" name="subject" rules={required('Please enter a subject')}>
          <Input />
        </Form.Item>
        <Form.Item label="Message" name="message" rules={required('Please enter a message')}>
          <Input.TextArea rows={5} />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={loading}>
          Send Feedback
        </Button>
      </Form>
    </Card>
  );
}
