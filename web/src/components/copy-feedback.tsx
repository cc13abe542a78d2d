import { Alert, Progress } from 'antd';

export function CopyFeedback({
  status,
  progress,
  message,
}: {
  status: 'idle' | 'copied' | 'failed';
  progress: number;
  message: string | null;
}) {
  if (status === 'idle' || !message) return null;
  return (
    <div className="fv-copy-feedback" role="status">
      <Alert type={status === 'copied' ? 'success' : 'error'} message={message} showIcon />
      {status === 'copied' && (
        <Progress percent={progress} showInfo={false} size="small" strokeColor="#52c41a" />
      )}
    </div>
  );
}
