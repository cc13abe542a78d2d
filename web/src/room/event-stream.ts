import { ROOM_EVENTS } from '@forkvote/contracts';
import { createParser } from 'eventsource-parser';

/** SPEC §9: at most 5 reconnects, 1000 ms doubling, capped at 30000 ms; reset on SUBSCRIBED_TO_SSE. */
export const RECONNECT = { attempts: 5, firstDelayMs: 1000, maxDelayMs: 30_000 };
/** The gateway sends a comment every 15 s; a stream silent for longer than this is dead, whatever TCP says. */
export const SILENCE_LIMIT_MS = 35_000;

/**
 * The wait before reconnect `attempt` (0-based): the SPEC's doubling backoff, never shorter than the
 * server's `retry:`, spread by ±20% so the clients of a draining gateway do not all come back at once.
 */
export function reconnectDelay(attempt: number, serverRetryMs = 0, random = Math.random): number {
  const backoff = Math.min(RECONNECT.firstDelayMs * 2 ** attempt, RECONNECT.maxDelayMs);
  return Math.round(Math.max(backoff, serverRetryMs) * (0.8 + 0.4 * random()));
}

export type StreamStatus = 'connecting' | 'connected' | 'retrying' | 'gaveUp';

export interface RoomStreamHandlers {
  /**
   * Where to resume: the last event id seen, or, with none, the id of a fresh room snapshot the caller has
   * just applied. Called before every connect.
   */
  resumeFrom(): Promise<string>;
  onEvent(name: string, data: string, id: string | undefined): void;
  onStatus(status: StreamStatus): void;
  /** The server says this browser is no longer in the room (403/404): no retry can help. */
  onGone(): void;
}

/**
 * A room's event stream over fetch, so the client controls its reconnects: it resumes after the last event
 * it saw (Last-Event-ID), honours the server's `retry:`, backs off as the SPEC says, notices a silent
 * stream, and after the last attempt waits for `reconnectNow()` (a button, the network coming back, the
 * tab becoming visible).
 */
export class RoomEventStream {
  private attempt = 0;
  private serverRetryMs = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private controller: AbortController | null = null;
  private stopped = false;
  private status: StreamStatus = 'connecting';
  /** The server's clock less this one's, from the stream's Date header and its greeting's `sentAt`. */
  private clockOffsetMs = 0;

  constructor(
    private readonly url: string,
    private readonly handlers: RoomStreamHandlers,
    private readonly random: () => number = Math.random,
  ) {}

  start(): void {
    void this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.controller?.abort();
  }

  /** The server's time now, as near as this stream can tell (to a second before its greeting). */
  serverNow(): number {
    return Date.now() + this.clockOffsetMs;
  }

  /** Connects at once with a fresh set of attempts, unless a connection is already up or on its way. */
  reconnectNow(): void {
    if (this.stopped || this.status === 'connected' || this.status === 'connecting') return;
    clearTimeout(this.timer);
    this.attempt = 0;
    void this.connect();
  }

  private setStatus(status: StreamStatus): void {
    this.status = status;
    this.handlers.onStatus(status);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    this.setStatus('connecting');
    const controller = (this.controller = new AbortController());
    let silence: ReturnType<typeof setTimeout> | undefined;
    let reader: ReadableStreamDefaultReader<string> | undefined;
    const heard = () => {
      clearTimeout(silence);
      silence = setTimeout(() => {
        controller.abort();
        void reader?.cancel().catch(() => undefined);
      }, SILENCE_LIMIT_MS);
    };
    try {
      const from = await this.handlers.resumeFrom();
      if (this.stopped) return;
      heard();
      const response = await fetch(this.url, {
        headers: { Accept: 'text/event-stream', 'Last-Event-ID': from },
        credentials: 'include',
        cache: 'no-store',
        signal: controller.signal,
      });
      if (response.status === 403 || response.status === 404) {
        this.stopped = true;
        this.handlers.onGone();
        return;
      }
      if (!response.ok || !response.body) throw new Error(`event stream answered ${response.status}`);
      // Date has whole seconds: the middle of its second is the best guess until the greeting says better.
      const date = Date.parse(response.headers.get('date') ?? '');
      if (Number.isFinite(date)) this.clockOffsetMs = date + 500 - Date.now();
      const parser = createParser({
        onRetry: (ms) => (this.serverRetryMs = ms),
        onEvent: (event) => {
          if (!event.event) return;
          if (event.event === ROOM_EVENTS.subscribed) {
            this.attempt = 0;
            const sentAt = (JSON.parse(event.data) as { sentAt?: unknown }).sentAt;
            if (typeof sentAt === 'number') this.clockOffsetMs = sentAt - Date.now();
            this.setStatus('connected');
          }
          this.handlers.onEvent(event.event, event.data, event.id);
        },
      });
      reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        heard();
        parser.feed(value);
      }
    } catch (err) {
      // A resync that failed with the same answers means the same as the stream's.
      if (err instanceof Error && 'status' in err && (err.status === 403 || err.status === 404)) {
        this.stopped = true;
        this.handlers.onGone();
        return;
      }
    } finally {
      clearTimeout(silence);
    }
    if (this.stopped) return;
    this.retry();
  }

  private retry(): void {
    if (this.attempt >= RECONNECT.attempts) return this.setStatus('gaveUp');
    this.setStatus('retrying');
    this.timer = setTimeout(
      () => void this.connect(),
      reconnectDelay(this.attempt, this.serverRetryMs, this.random),
    );
    this.attempt += 1;
  }
}
