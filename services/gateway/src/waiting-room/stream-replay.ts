import type { PublishedRoomEvent } from '@forkvote/room-events';

/** Stream ids are `<ms>-<seq>`; compares them as numbers. */
export function compareEventIds(a: string, b: string): number {
  const ad = a.indexOf('-');
  const bd = b.indexOf('-');
  return Number(a.slice(0, ad)) - Number(b.slice(0, bd)) || Number(a.slice(ad + 1)) - Number(b.slice(bd + 1));
}

/** One event as Server-Sent Events text. */
export const frame = (event: PublishedRoomEvent) =>
  `id: ${event.id}\nevent: ${event.event}\ndata: ${event.data}\n\n`;

/** Whether a live event is one the stream has not had yet (its newest is `lastId`; null: any is new). */
export const isNewTo = (lastId: string | null, event: PublishedRoomEvent) =>
  lastId === null || compareEventIds(event.id, lastId) > 0;

/**
 * What opens a stream after its headers: the events it missed since `lastEventId` (read from the room's
 * log), the `greeting`, then the live events held while the log was read, each event once. Answers the
 * text and the newest id it sent, from which live events continue: null when it sent none, since an id the
 * room's log never held (or a clock behind it after a failover) must not mute the stream.
 */
export function openingOf(
  lastEventId: string | undefined,
  missed: PublishedRoomEvent[],
  greeting: string,
  held: PublishedRoomEvent[],
): { text: string; lastId: string | null } {
  let text = '';
  let seen: string | null = lastEventId ?? null;
  for (const event of missed) text += frame(event);
  seen = missed.at(-1)?.id ?? seen;
  text += greeting;
  for (const event of held) {
    if (!isNewTo(seen, event)) continue;
    text += frame(event);
    seen = event.id;
  }
  return { text, lastId: seen === (lastEventId ?? null) ? null : seen };
}
