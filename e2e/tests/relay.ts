import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP relay between a browser and the stack that a test can cut, as a phone's network drops: every open
 * connection (the room's event stream too) is torn down, and new ones are refused until it is restored.
 * Chromium's offline mode alone keeps an open stream alive, so it cannot stand for this.
 */
export class Relay {
  private readonly sockets = new Set<Socket>();
  private readonly server: Server;
  private cut = false;
  url = '';

  private constructor(host: string, port: number) {
    this.server = createServer((client) => {
      if (this.cut) return client.destroy();
      const upstream = createConnection({ host, port });
      for (const [a, b] of [
        [client, upstream],
        [upstream, client],
      ]) {
        this.sockets.add(a);
        a.on('error', () => b.destroy());
        a.on('close', () => {
          this.sockets.delete(a);
          b.destroy();
        });
        a.pipe(b);
      }
    });
  }

  static async open(target: string): Promise<Relay> {
    const { hostname, port } = new URL(target);
    const relay = new Relay(hostname, Number(port));
    await new Promise<void>((resolve) => relay.server.listen(0, hostname, resolve));
    relay.url = `http://${hostname}:${(relay.server.address() as { port: number }).port}`;
    return relay;
  }

  /** The network drops: open connections break, new ones fail. */
  cutOff(): void {
    this.cut = true;
    for (const socket of this.sockets) socket.destroy();
  }

  /** The network is back. */
  restore(): void {
    this.cut = false;
  }

  async close(): Promise<void> {
    this.cutOff();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
