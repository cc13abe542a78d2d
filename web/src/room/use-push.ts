import { PUSH_MESSAGES, type PushKeyAnswer } from '@forkvote/contracts';
import { useCallback, useState } from 'react';
import useSWR from 'swr';
import { api, errorMessage } from '../api/endpoints';

const supported = () =>
  typeof window !== 'undefined' &&
  'serviceWorker' in navigator &&
  'PushManager' in window &&
  'Notification' in window;

/**
 * "Tell me when it's my turn": asks the browser's permission, subscribes with the server's VAPID key and
 * hands the subscription to the room. Offered only where the browser can and the server sends (its key
 * answers); answers what to say.
 */
export function usePush(waitingRoomId: string | undefined) {
  const { data: key } = useSWR<PushKeyAnswer>(supported() ? '/api/v1/waiting-room/push-key' : null, {
    shouldRetryOnError: false,
  });
  const [status, setStatus] = useState<{ ok: boolean; message: string } | null>(
    supported() && Notification.permission === 'denied'
      ? { ok: false, message: 'Notifications are blocked for this site in your browser settings.' }
      : null,
  );
  const [busy, setBusy] = useState(false);

  const subscribe = useCallback(async () => {
    if (!key || !waitingRoomId) return;
    setBusy(true);
    try {
      if ((await Notification.requestPermission()) !== 'granted') {
        setStatus({ ok: false, message: 'Notifications were not allowed.' });
        return;
      }
      const registration = await navigator.serviceWorker.ready;
      const subscription =
        (await registration.pushManager.getSubscription()) ??
        (await registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: base64UrlBytes(key.publicKey),
        }));
      const { endpoint, keys } = subscription.toJSON();
      await api.pushSubscribe(waitingRoomId, {
        endpoint: endpoint ?? '',
        keys: keys as { p256dh: string; auth: string },
      });
      setStatus({ ok: true, message: PUSH_MESSAGES.subscribed });
    } catch (err) {
      setStatus({ ok: false, message: errorMessage(err, PUSH_MESSAGES.badSubscription) });
    } finally {
      setBusy(false);
    }
  }, [key, waitingRoomId]);

  return { available: Boolean(key), subscribe, status, busy };
}

function base64UrlBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(text.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
