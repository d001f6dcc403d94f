import net from 'node:net';
import type { AddressInfo } from 'node:net';

/** A TCP relay in front of a server (PostgreSQL), which a test can make fail the ways a network does. */
export interface TcpRelay {
  /** Listens on a free loopback port and returns `target` with that port instead of its own. */
  listen(): Promise<URL>;
  /** Bytes are held, as when a network drops packets without a reset, until `resume`. */
  silence(): void;
  resume(): void;
  /**
   * Every connection is cut at once (reset, or closed as by a server going away when `reset` is
   * false), and every new one is cut as soon as it arrives, until `restore`.
   */
  drop(options?: { reset?: boolean }): void;
  restore(): void;
  /** How many connections pass through now. */
  readonly open: number;
  close(): Promise<void>;
}

export function tcpRelay(target: URL): TcpRelay {
  let silent = false;
  let dropped: { reset: boolean } | undefined;
  const held: (() => void)[] = [];
  const pairs = new Set<[net.Socket, net.Socket]>();
  const cut = (s: net.Socket, reset: boolean) => (reset ? s.resetAndDestroy() : s.destroy());
  const server = net.createServer((client) => {
    client.on('error', () => undefined);
    if (dropped) return cut(client, dropped.reset);
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    const pipe = (from: net.Socket, to: net.Socket) =>
      from.on('data', (d) => {
        if (silent) held.push(() => to.write(d));
        else to.write(d);
      });
    pipe(client, upstream);
    pipe(upstream, client);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('error', end).on('close', end);
  });
  return {
    listen: () =>
      new Promise<URL>((resolve) =>
        server.listen(0, '127.0.0.1', () => {
          const via = new URL(target);
          via.hostname = '127.0.0.1';
          via.port = String((server.address() as AddressInfo).port);
          resolve(via);
        }),
      ),
    silence: () => (silent = true),
    resume: () => {
      silent = false;
      for (const h of held.splice(0)) h();
    },
    drop: ({ reset = true } = {}) => {
      dropped = { reset };
      // Bytes held for a connection now cut are lost with it.
      held.length = 0;
      for (const [client, upstream] of pairs) {
        cut(client, reset);
        upstream.destroy();
      }
      pairs.clear();
    },
    restore: () => (dropped = undefined),
    get open() {
      return pairs.size;
    },
    close: () => {
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream.destroy();
      }
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}
