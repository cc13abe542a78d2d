/*
 * The service worker's part of Web Push (imported by the generated worker, see vite.config.ts): shows each
 * notification rooms sends ({title, body, url, tag}; contracts' PushMessage) and, on a tap, focuses the
 * app's window or opens one at the notification's page.
 */
self.addEventListener('push', (event) => {
  let message = { title: 'ForkVote', body: '', url: '/', tag: 'forkvote' };
  try {
    message = { ...message, ...event.data.json() };
  } catch {
    // Not ours, or empty: the default text.
  }
  event.waitUntil(
    self.registration.showNotification(message.title, {
      body: message.body,
      tag: message.tag,
      icon: '/icon-192.png',
      badge: '/icon-192.png',
      data: { url: message.url },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url ?? '/', self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
      if (open) return open.navigate(url).then((w) => (w ?? open).focus());
      return self.clients.openWindow(url);
    }),
  );
});
