import { request as httpRequest, IncomingHttpHeaders, IncomingMessage } from 'node:http';

export interface StreamEvent {
  id?: string;
  event: string;
  data: unknown;
}

/**
 * A minimal Server-Sent Events client for tests and benches: follows the WHATWG parsing rules for the
 * fields we use (id, event, data, comments), and can send cookies and Last-Event-ID.
 */
export class EventStreamClient {
  readonly events: StreamEvent[] = [];
  lastEventId?: string;
  status?: number;
  headers?: IncomingHttpHeaders;
  private response?: IncomingMessage;
  private waiters: { test: () => boolean; resolve: () => void }[] = [];
  private closedResolve?: () => void;
  readonly closed = new Promise<void>((resolve) => (this.closedResolve = resolve));

  private constructor() {}

  static open(url: string, headers: Record<string, string> = {}): Promise<EventStreamClient> {
    const client = new EventStreamClient();
    return new Promise((resolve, reject) => {
      const req = httpRequest(url, { headers: { Accept: 'text/event-stream', ...headers } }, (res) => {
        client.status = res.statusCode;
        client.headers = res.headers;
        client.response = res;
        if (res.statusCode !== 200) {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () =>
            reject(
              Object.assign(new Error(`event stream answered ${res.statusCode}: ${body}`), {
                status: res.statusCode,
                body,
              }),
            ),
          );
          return;
        }
        res.setEncoding('utf8');
        let buffer = '';
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) !== -1) {
            client.dispatch(buffer.slice(0, end));
            buffer = buffer.slice(end + 2);
          }
        });
        res.on('close', () => client.closedResolve?.());
        resolve(client);
      });
      req.on('error', reject);
      req.end();
    });
  }

  private dispatch(block: string): void {
    let event = 'message';
    const data: string[] = [];
    let id: string | undefined;
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
      else if (field === 'id') id = value;
    }
    if (id !== undefined) this.lastEventId = id;
    if (data.length === 0) return;
    const text = data.join('\n');
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON: keep the text */
    }
    this.events.push({ id, event, data: parsed });
    this.waiters = this.waiters.filter((w) => {
      if (!w.test()) return true;
      w.resolve();
      return false;
    });
  }

  names(): string[] {
    return this.events.map((e) => e.event);
  }

  /** Resolves when `count` events named `event` have arrived in total. */
  waitFor(event: string, count = 1, timeoutMs = 10_000): Promise<StreamEvent[]> {
    const matching = () => this.events.filter((e) => e.event === event);
    return new Promise((resolve, reject) => {
      const test = () => matching().length >= count;
      if (test()) return resolve(matching());
      const timer = setTimeout(
        () =>
          reject(new Error(`timed out waiting for ${count} × ${event}; got ${JSON.stringify(this.names())}`)),
        timeoutMs,
      );
      this.waiters.push({
        test,
        resolve: () => {
          clearTimeout(timer);
          resolve(matching());
        },
      });
    });
  }

  close(): void {
    this.response?.destroy();
  }
}
