/** Web Push's texts and wire types, for the services and the web app alike. */
export const PUSH_MESSAGES = {
  unavailable: 'Notifications are not available on this server.',
  badSubscription: 'This browser gave a subscription we cannot use.',
  subscribed: 'We will tell you when it is your turn.',
} as const;

/** What a notification carries to the service worker, which shows it and opens `url` on a tap. */
export interface PushMessage {
  title: string;
  body: string;
  /** Same-origin path to open. */
  url: string;
  /** Notifications of one room and kind replace each other on the device. */
  tag: string;
}

export interface PushKeyAnswer {
  publicKey: string;
}

export interface PushSubscribed {
  subscribed: true;
}
