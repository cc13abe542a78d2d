import { ROOM_ID_PATTERN, ROOM_MESSAGES, USER_NAME_MAX } from '@forkvote/contracts';
import { Alert, Button, Card, Form, Input, Typography } from 'antd';
import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import type { FormInstance } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { useAuth } from '../../auth/auth-context';
import { AlertDialog } from '../../components/dialogs/dialogs';
import { useRoom } from '../../room/room-context';

/** The name field starts with the logged-in user's name once verify-token has answered. */
function usePrefillName(form: FormInstance<{ userName: string }>, name: string | undefined) {
  useEffect(() => {
    if (name && !form.getFieldValue('userName')) form.setFieldValue('userName', name);
  }, [form, name]);
}

/** "Your Name" on the join and create forms: required, trimmed by the caller, at most USER_NAME_MAX. */
function NameField() {
  return (
    <Form.Item
      label="Your Name"
      name="userName"
      rules={[{ required: true, whitespace: true, message: ROOM_MESSAGES.nameRequired }]}
    >
      <Input autoComplete="nickname" maxLength={USER_NAME_MAX} />
    </Form.Item>
  );
}

/** The join and create forms' card: its title, and the room call's error in a red box (SPEC §2). */
function RoomFormCard({
  title,
  error,
  children,
}: {
  title: string;
  error: string | null;
  children: ReactNode;
}) {
  return (
    <Card className="fv-form-card" title={<Typography.Title level={2}>{title}</Typography.Title>}>
      {error && <Alert type="error" showIcon message={error} className="fv-form-alert" role="alert" />}
      {children}
    </Card>
  );
}

/** SPEC §5: trimmed; empty and bad-format messages on blur. */
export function roomIdProblem(value: string): string | null {
  const id = value.trim();
  if (!id) return ROOM_MESSAGES.enterRoomId;
  return ROOM_ID_PATTERN.test(id) ? null : ROOM_MESSAGES.enterValidRoomId;
}

export function JoinSessionPage() {
  const [params] = useSearchParams();
  const auth = useAuth();
  const { state, join } = useRoom();
  const navigate = useNavigate();
  const prefill = params.get('waitingRoomId') ?? '';
  const [invalidAlert, setInvalidAlert] = useState(false);
  const [form] = Form.useForm<{ userName: string; waitingRoomId: string }>();
  usePrefillName(form as unknown as FormInstance<{ userName: string }>, auth.payload?.name);

  const submit = async () => {
    const { userName, waitingRoomId } = form.getFieldsValue();
    if (roomIdProblem(waitingRoomId ?? '')) return setInvalidAlert(true);
    const fields = await form.validateFields(['userName']).catch(() => null);
    if (!fields) return;
    if (await join(waitingRoomId.trim(), userName.trim())) navigate('/waiting-room');
  };

  return (
    <RoomFormCard title="Join a Session" error={state.room.error}>
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={submit}
        validateTrigger="onBlur"
        initialValues={{
          userName: auth.payload?.name ?? '',
          waitingRoomId: ROOM_ID_PATTERN.test(prefill) ? prefill : '',
        }}
      >
        <NameField />
        <Form.Item
          label="Waiting Room ID"
          name="waitingRoomId"
          rules={[
            {
              validator: (_, v: string) =>
                roomIdProblem(v ?? '')
                  ? Promise.reject(new Error(roomIdProblem(v ?? '')!))
                  : Promise.resolve(),
            },
          ]}
        >
          <Input maxLength={6} className="fv-code-input" autoComplete="off" autoCapitalize="characters" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block size="large" loading={state.room.isLoading}>
          {state.room.isLoading ? 'Joining...' : 'Join Session'}
        </Button>
      </Form>
      <AlertDialog
        open={invalidAlert}
        message={ROOM_MESSAGES.invalidRoomId}
        onConfirm={() => setInvalidAlert(false)}
      />
    </RoomFormCard>
  );
}

export function CreateSessionPage() {
  const auth = useAuth();
  const { state, create } = useRoom();
  const navigate = useNavigate();
  const [form] = Form.useForm<{ userName: string }>();
  usePrefillName(form, auth.payload?.name);
  const submit = async ({ userName }: { userName: string }) => {
    if (await create(userName.trim())) navigate('/waiting-room');
  };
  return (
    <RoomFormCard title="Create a New Session" error={state.room.error}>
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={submit}
        initialValues={{ userName: auth.payload?.name ?? '' }}
      >
        <NameField />
        <Button type="primary" htmlType="submit" block size="large" loading={state.room.isLoading}>
          Create Session
        </Button>
      </Form>
    </RoomFormCard>
  );
}
