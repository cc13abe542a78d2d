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
  const copier = useCopyLink();
  const { copy } = copier;
  return {
    ...copier,
    copy: useCallback(async () => {
      if (waitingRoomId) await copy(inviteLink(waitingRoomId));
    }, [waitingRoomId, copy]),
  };
}

/** Copies a link with the SPEC's clipboard feedback (the invite's texts, 2 s, the shrinking bar). */
export function useCopyLink() {
  const [status, setStatus] = useState<'idle' | 'copied' | 'failed'>('idle');
  const [progress, setProgress] = useState(100);
  const timer = useRef<ReturnType<typeof setInterval> | undefined>(undefined);

  useEffect(() => () => clearInterval(timer.current), []);

  const copy = useCallback(async (link: string) => {
    clearInterval(timer.current);
    try {
      await navigator.clipboard.writeText(link);
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
  }, []);

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

/**
 * Shares a link by the device's share sheet (Web Share API) where there is one, else copies it with the
 * SPEC's clipboard feedback (`copy` from useCopyLink). A share the person cancels is left at that.
 */
export async function shareLink(
  link: { title: string; text: string; url: string },
  copy: (url: string) => Promise<void>,
): Promise<void> {
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share(link);
      return;
    } catch (err) {
      if ((err as Error).name === 'AbortError') return;
    }
  }
  await copy(link.url);
}
