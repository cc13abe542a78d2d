import { useCallback, useEffect, useRef, useState } from 'react';

export const COPIED_MS = 2000;
export const PROGRESS_TICK_MS = 50;

export function inviteLink(waitingRoomId: string): string {
  return `${window.location.origin}/join-session?waitingRoomId=${waitingRoomId}`;
}

/**
 * SPEC §2 share: copies the invite link; success shows for 2 s with a shrinking progress bar (updated every
 * 50 ms); failure shows the error text.
 */
export function useCopyInvite(waitingRoomId: string | undefined) {
  const [status, setStatus] = useState<'idle' | 'copied' | 'failed'>('idle');
  const [progress, setProgress] = useState(100);
  const timer = useRef<ReturnType<typeof setInterval> | undefined>(undefined);

  useEffect(() => () => clearInterval(timer.current), []);

  const copy = useCallback(async () => {
    if (!waitingRoomId) return;
    clearInterval(timer.current);
    try {
      await navigator.clipboard.writeText(inviteLink(waitingRoomId));
      setStatus('copied');
      const started = Date.now();
      setProgress(100);
      timer.current = setInterval(() => {
        const left = Math.max(0, 100 - ((Date.now() - started) / COPIED_MS) * 100);
        setProgress(left);
        if (left === 0) {
          clearInterval(timer.current);
          setStatus('idle');
        }
      }, PROGRESS_TICK_MS);
    } catch {
      setStatus('failed');
    }
  }, [waitingRoomId]);

  return {
    copy,
    status,
    progress,
    message:
      status === 'copied'
        ? 'Copied to clipboard!'
        : status === 'failed'
          ? 'Error copying to clipboard. Please try again.'
          : null,
  };
}
