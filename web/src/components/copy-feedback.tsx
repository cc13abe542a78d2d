import { PlainAlert } from './plain-alert';

/** What came of copying the invite link, with a bar that runs out while the message shows. */
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
      <PlainAlert type={status === 'copied' ? 'success' : 'error'} message={message} />
      {status === 'copied' && (
        <div className="fv-progress" aria-hidden="true">
          <div className="fv-progress-bar" style={{ width: `${progress}%` }} />
        </div>
      )}
    </div>
  );
}
